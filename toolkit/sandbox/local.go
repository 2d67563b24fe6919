package sandbox

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
)

// DefaultEnv names the host environment variables a Local sandbox's commands inherit when
// LocalOptions.Env is nil. HOME and TMPDIR are left out on purpose: their values are host
// paths, which the model would read in a command's output. An isolated command gets HOME=/tmp
// unless Env or Vars set it.
var DefaultEnv = []string{"PATH", "LANG", "LC_ALL", "LC_CTYPE", "TZ"}

// LocalOptions configures a Local sandbox.
type LocalOptions struct {
	// Env names the host environment variables commands inherit (nil: DefaultEnv). Every
	// other variable of the host, its secrets included, stays out.
	Env []string
	// Vars are more variables for commands, as "KEY=value"; they win over Env.
	Vars []string
	// AllowHardLinks lets Open read regular files with more than one hard link. By default
	// such a file is refused with ErrHardLink: a link planted in the sandbox may be another
	// name of a file outside it (os.Root cannot tell, since a hard link is not a path).
	// Writes never go through a link either way: WriteFile replaces the name with a new file.
	AllowHardLinks bool

	// Network lets isolated commands use the host's network, all of it: the internet, the
	// local network, services listening on the host's loopback, a cloud's metadata address.
	// By default a command has a network of its own with only a loopback interface: it
	// reaches nothing, not even the host's loopback.
	Network bool
	// Egress lets isolated commands reach the hosts it lists, and no other, through a proxy
	// the sandbox runs on the host (see the package doc). It excludes Network and
	// UnconfinedHostExecution. Nil: no egress.
	Egress *Egress
	// Mounts are more host files or directories isolated commands see, such as a build cache
	// or a toolchain outside /usr. Their host paths are the operator's choice; see the package
	// doc for what a command can learn of them.
	Mounts []Mount
	// Limits bound what an isolated command may use; zero fields take the defaults.
	Limits Limits

	// WriteQuota is how many bytes WriteFile may add to the sandbox in all, from when it is
	// opened: 0 means DefaultWriteQuota (1 GiB), a negative value no quota. A write counts
	// the size of its data minus the size of the file it replaces (a smaller file gives bytes
	// back), and 4 KiB for each file and directory it creates; what commands write is not
	// counted. A write past the quota fails with a *QuotaError (ErrQuota) and changes nothing.
	// The count lives in the Local: a host should open one per workspace, not one per call.
	WriteQuota int64

	// UnconfinedHostExecution runs commands on the host, as the program's user, without
	// isolation, where isolation is not available (not Linux, no user namespaces) and the
	// operator accepts what that gives away: a command reads every file that user may read
	// (SSH keys, cloud credentials, other workspaces), writes every file it may write, sees
	// and signals the host's processes and reads their environments (cat /proc/$PPID/environ
	// shows the program's, API keys included), reaches the network, learns the workspace's
	// host path, and may leave processes running after the call (setsid escapes the process
	// group that is killed). None of Limits applies. Only approval (the shell tool asks by
	// default) and the environment (Env, Vars) stand between the model and the host.
	UnconfinedHostExecution bool
}

// Mount is a host file or directory an isolated command sees.
type Mount struct {
	Source   string // the host path; symbolic links are resolved when the sandbox is opened
	Target   string // where commands see it: absolute, not /, nor in /workspace, /proc or /dev
	Writable bool   // read-only unless set
}

// Limits bound an isolated command (the package doc says how each is enforced). A zero
// field takes its default; a negative one removes the bound.
type Limits struct {
	// Processes bounds the processes and threads the command may run at once (default 1024).
	Processes int
	// Memory bounds each process's address space, in bytes (default 4 GiB).
	Memory int64
	// CPUTime bounds each process's CPU time, rounded up to whole seconds (default 10 minutes).
	CPUTime time.Duration
	// FileSize bounds the size of a file a process writes, in bytes (default 1 GiB).
	FileSize int64
	// Tmp is the size of /tmp, which is memory, in bytes (default 512 MiB; negative: the
	// kernel's default of half the host's memory).
	Tmp int64
	// TotalMemory bounds the memory of the command's processes together, in bytes: what
	// they hold resident, the files of /tmp (a tmpfs, charged to the process that writes
	// them) and SysV shared memory included, swap counted or none. It holds where a cgroup
	// can be made for the command (see Local.MemoryBound); a command that goes past it is
	// stopped whole, and its output ends with a line that says so. The default is Memory +
	// Tmp (4.5 GiB with their defaults, a negative one counting as its default): one
	// process as large as its address space may be, beside a full /tmp. Negative: no cgroup.
	TotalMemory int64
}

// The defaults of Limits.
const (
	DefaultProcesses = 1024
	DefaultMemory    = 4 << 30
	DefaultCPUTime   = 10 * time.Minute
	DefaultFileSize  = 1 << 30
	DefaultTmp       = 512 << 20
)

func (l Limits) withDefaults() Limits {
	if l.Processes == 0 {
		l.Processes = DefaultProcesses
	}
	if l.Memory == 0 {
		l.Memory = DefaultMemory
	}
	if l.CPUTime == 0 {
		l.CPUTime = DefaultCPUTime
	}
	if l.FileSize == 0 {
		l.FileSize = DefaultFileSize
	}
	if l.Tmp == 0 {
		l.Tmp = DefaultTmp
	}
	if l.TotalMemory == 0 {
		l.TotalMemory = l.Memory
		if l.Memory < 0 {
			l.TotalMemory = DefaultMemory
		}
		if l.Tmp < 0 {
			l.TotalMemory += DefaultTmp
		} else {
			l.TotalMemory += l.Tmp
		}
	}
	return l
}

// MemoryBound says what bounds the total memory of an isolated command (Limits.TotalMemory)
// on this host: "cgroup v2" or "cgroup v1", a cgroup made for each command, or, where the
// program can make none (or TotalMemory is negative), "none: the system call filter and the
// IPC limits only", which bound memory outside the processes' address spaces (no memfd, SysV
// IPC within Tmp) while the total is Processes × Memory plus /tmp. With
// UnconfinedHostExecution it is "none: commands run on the host". The package doc says how
// each is found; the first call logs the answer (log/slog's default logger).
func (l *Local) MemoryBound() string {
	switch {
	case l.opts.UnconfinedHostExecution:
		return "none: commands run on the host"
	case l.opts.Limits.withDefaults().TotalMemory < 0:
		return boundNone
	}
	return memoryBound()
}

// Local is a sandbox in a directory of the host. Its files go through an os.Root (see the
// package doc); its commands run with "sh -c" in the directory, stdin closed, isolated from
// the host as the package doc describes, or, with LocalOptions.UnconfinedHostExecution, on
// the host in a process group of their own that is killed when the command ends or its ctx
// is done.
type Local struct {
	root  *os.Root
	dir   string   // the host path of the root, never shown to a model
	real  string   // dir with symbolic links resolved: what an isolated command mounts
	hosts []string // host spellings of dir that command output is scrubbed of
	env   []string
	opts  LocalOptions
	rules []egressRule // opts.Egress's allowlist, parsed

	quotaMu sync.Mutex
	quota   quota
}

// OpenLocal opens the directory dir as a sandbox. Close it when done. It fails when a Mount
// is invalid or its source does not exist.
func OpenLocal(dir string, opts LocalOptions) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	var rules []egressRule
	if opts.Egress != nil {
		if opts.Network || opts.UnconfinedHostExecution {
			return nil, errors.New("sandbox: LocalOptions.Egress restricts the network; it cannot be combined with Network or UnconfinedHostExecution, which give commands the host's whole network")
		}
		if rules, err = parseEgress(opts.Egress); err != nil {
			return nil, err
		}
	}
	mounts, err := resolveMounts(opts.Mounts)
	if err != nil {
		return nil, err
	}
	opts.Mounts = mounts
	root, err := os.OpenRoot(abs)
	if err != nil {
		return nil, err // for the host, who chose dir: it may name it
	}
	real := abs
	hosts := []string{abs}
	if r, err := filepath.EvalSymlinks(abs); err == nil && r != abs {
		real = r
		hosts = append(hosts, r)
	}
	// The longest first, so that a path containing the other is replaced whole.
	slices.SortFunc(hosts, func(a, b string) int { return len(b) - len(a) })
	names := opts.Env
	if names == nil {
		names = DefaultEnv
	}
	var env []string
	if !opts.UnconfinedHostExecution {
		env = append(env, "HOME=/tmp") // the host's HOME does not exist in the sandbox
	}
	for _, name := range names {
		if v, ok := os.LookupEnv(name); ok {
			env = append(env, name+"="+v)
		}
	}
	env = dedupEnv(append(env, opts.Vars...))
	if opts.Egress != nil {
		// Last, so that neither the host's variables nor Vars route around the proxy.
		// ALL_PROXY is SOCKS5 with names resolved by the proxy (socks5h), for what is not
		// HTTP; the same listener takes both.
		proxy, socks := "http://"+egressListenAddr, "socks5h://"+egressListenAddr
		env = dedupEnv(append(env, "HTTP_PROXY="+proxy, "HTTPS_PROXY="+proxy, "ALL_PROXY="+socks,
			"http_proxy="+proxy, "https_proxy="+proxy, "all_proxy="+socks, "NO_PROXY=", "no_proxy="))
	}
	return &Local{root: root, dir: abs, real: real, hosts: hosts, env: env, opts: opts, rules: rules, quota: newQuota(opts.WriteQuota)}, nil
}

// dedupEnv keeps the last of the variables of the same name, in the place of the first: a
// program that reads the first would otherwise see another value than the shell.
func dedupEnv(env []string) []string {
	last := map[string]string{}
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		last[k] = kv
	}
	var out []string
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		if v, ok := last[k]; ok {
			out = append(out, v)
			delete(last, k)
		}
	}
	return out
}

// resolveMounts checks mounts and resolves their sources.
func resolveMounts(mounts []Mount) ([]Mount, error) {
	var out []Mount
	for _, m := range mounts {
		t := m.Target
		if !path.IsAbs(t) || path.Clean(t) != t || t == "/" {
			return nil, fmt.Errorf("sandbox: mount target %q is not a clean absolute path other than /", t)
		}
		for _, reserved := range []string{WorkspacePath, "/proc", "/dev"} {
			if t == reserved || strings.HasPrefix(t, reserved+"/") {
				return nil, fmt.Errorf("sandbox: mount target %q is in %s, which the sandbox makes", t, reserved)
			}
		}
		if !filepath.IsAbs(m.Source) {
			return nil, fmt.Errorf("sandbox: mount source %q is not an absolute path", m.Source)
		}
		src, err := filepath.EvalSymlinks(m.Source)
		if err != nil {
			return nil, fmt.Errorf("sandbox: mount source: %w", err)
		}
		m.Source = src
		out = append(out, m)
	}
	return out, nil
}

// Close releases the directory.
func (l *Local) Close() error { return l.root.Close() }

// Open opens name for reading.
func (l *Local) Open(name string) (fs.File, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrInvalid}
	}
	// Non-blocking, so that opening a named pipe returns at once instead of waiting for a
	// writer that may never come; it is then refused below.
	f, err := l.root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, l.pathError("open", name, err)
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, l.pathError("open", name, err)
	}
	switch {
	case !info.Mode().IsRegular() && !info.IsDir():
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrNotRegular}
	case !l.opts.AllowHardLinks && info.Mode().IsRegular() && hardLinks(info) > 1:
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: name, Err: ErrHardLink}
	}
	// Stat answers with info, as of the open: a system call less per file.
	return &localFile{l: l, f: f, name: name, info: info}, nil
}

// Stat returns the file information of name, following symbolic links inside the sandbox.
func (l *Local) Stat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "stat", Path: name, Err: fs.ErrInvalid}
	}
	info, err := l.root.Stat(name)
	if err != nil {
		return nil, l.pathError("stat", name, err)
	}
	return info, nil
}

// Lstat returns the file information of name without following a symbolic link at its end
// (links before it, inside the sandbox, are followed). With ReadLink it makes Local an
// fs.ReadLinkFS.
func (l *Local) Lstat(name string) (fs.FileInfo, error) {
	if !fs.ValidPath(name) {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: fs.ErrInvalid}
	}
	info, err := l.root.Lstat(name)
	if err != nil {
		return nil, l.pathError("lstat", name, err)
	}
	return info, nil
}

// ReadLink returns the target of the symbolic link name, as it was written (it may lead
// outside the sandbox: using the link then fails with ErrEscape).
func (l *Local) ReadLink(name string) (string, error) {
	if !fs.ValidPath(name) {
		return "", &fs.PathError{Op: "readlink", Path: name, Err: fs.ErrInvalid}
	}
	target, err := l.root.Readlink(name)
	if err != nil {
		return "", l.pathError("readlink", name, err)
	}
	return target, nil
}

// ReadDir lists the directory name, sorted by name.
func (l *Local) ReadDir(name string) ([]fs.DirEntry, error) {
	f, err := l.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	entries, err := f.(fs.ReadDirFile).ReadDir(-1)
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, err
}

// WriteFile writes data to a new file beside name, then renames it over name, unless ctx
// ended before the rename (then name is left as it was) or the write quota refuses it.
func (l *Local) WriteFile(ctx context.Context, name string, data []byte) error {
	if !fs.ValidPath(name) || name == "." {
		return &fs.PathError{Op: "write", Path: name, Err: fs.ErrInvalid}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	dir, base := path.Split(name)
	if err := l.makeDirs(name, dir, int64(len(data))); err != nil {
		return err
	}
	perm := fs.FileMode(0o644)
	if info, err := l.root.Stat(name); err == nil {
		if info.IsDir() {
			return &fs.PathError{Op: "write", Path: name, Err: errIsDir}
		}
		perm = info.Mode().Perm()
	}
	// Beside the target, so the rename stays in one directory; the name's start is enough
	// to tell whose temporary file it is, and keeps the name within the system's limit.
	tmp := dir + "." + base[:min(len(base), 100)] + ".tmp-" + randomSuffix()
	f, err := l.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, perm)
	if err != nil {
		return l.pathError("write", name, err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = l.root.Chmod(tmp, perm) // the umask may have narrowed it
	}
	if err != nil {
		l.root.Remove(tmp)
		return l.pathError("write", name, err)
	}
	if err := l.replace(ctx, tmp, name, int64(len(data))); err != nil {
		l.root.Remove(tmp)
		return err
	}
	return nil
}

// makeDirs creates the missing directories dir of name, counting them against the quota
// with what the write of size bytes is about to add (checked again at the rename).
func (l *Local) makeDirs(name, dir string, size int64) error {
	l.quotaMu.Lock()
	defer l.quotaMu.Unlock()
	dirs := missingDirs(l, dir) * entryCost
	if err := l.quota.check(dirs + l.growth(name, size)); err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	if dir == "" {
		return nil
	}
	if err := l.root.MkdirAll(dir, 0o755); err != nil {
		if errors.Is(err, fs.ErrExist) {
			err = errNotDir // a file where a directory should be
		}
		return l.pathError("mkdir", strings.TrimSuffix(dir, "/"), err)
	}
	l.quota.add(dirs)
	return nil
}

// growth is what writing size bytes to name adds to the sandbox: the size less that of the
// entry it replaces, or plus entryCost for a new one.
func (l *Local) growth(name string, size int64) int64 {
	if info, err := l.root.Lstat(name); err == nil {
		return size - info.Size()
	}
	return size + entryCost
}

// replace renames tmp over name, when the quota allows what it adds and ctx has not ended.
// Under the quota's lock, so that what is counted is what the rename replaced.
func (l *Local) replace(ctx context.Context, tmp, name string, size int64) error {
	l.quotaMu.Lock()
	defer l.quotaMu.Unlock()
	growth := l.growth(name, size)
	if err := l.quota.check(growth); err != nil {
		return &fs.PathError{Op: "write", Path: name, Err: err}
	}
	// The last moment to give up: a call that timed out while the data was written must not
	// replace the file afterwards, when its caller has been told it failed. Past Commit, the
	// registry waits for the rename and reports its outcome.
	if err := runtime.Commit(ctx); err != nil {
		return err
	}
	if err := l.root.Rename(tmp, name); err != nil {
		return l.pathError("write", name, err)
	}
	l.quota.add(growth)
	return nil
}

var (
	errIsDir  = errors.New("is a directory")
	errNotDir = errors.New("not a directory")
)

func randomSuffix() string {
	var b [8]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// pathError rewrites an error of the os package into one that names the file by its
// sandbox name: the os errors of a Root-opened file carry the host path.
func (l *Local) pathError(op, name string, err error) error {
	// The innermost error, below the os package's PathErrors and LinkErrors, which may name
	// host paths.
	inner := err
	for {
		if inner.Error() == "path escapes from parent" {
			inner = ErrEscape // os.Root's own error for an escape, which it does not export
			break
		}
		next := errors.Unwrap(inner)
		if next == nil {
			break
		}
		inner = next
	}
	// Any host spelling: through a symlinked dir, the error may name only the resolved one.
	if msg := inner.Error(); l.scrub(msg) != msg {
		inner = errors.New(l.scrub(msg))
	}
	return &fs.PathError{Op: op, Path: name, Err: inner}
}

// scrub replaces the host spellings of the root in s by ".".
func (l *Local) scrub(s string) string {
	for _, h := range l.hosts {
		s = strings.ReplaceAll(s, h, ".")
	}
	return s
}

// localFile is a file opened through the root, whose errors name it by its sandbox name.
type localFile struct {
	l    *Local
	f    *os.File
	name string
	info fs.FileInfo
}

func (f *localFile) Stat() (fs.FileInfo, error) { return f.info, nil }

func (f *localFile) Read(p []byte) (int, error) {
	n, err := f.f.Read(p)
	if err != nil && err != io.EOF {
		err = f.l.pathError("read", f.name, err)
	}
	return n, err
}

func (f *localFile) Seek(offset int64, whence int) (int64, error) {
	n, err := f.f.Seek(offset, whence)
	if err != nil {
		err = f.l.pathError("seek", f.name, err)
	}
	return n, err
}

func (f *localFile) Close() error { return f.f.Close() }

// ReadDir reads the next n entries of a directory; their Info looks the entry up through the
// root (the os package's would stat a host path).
func (f *localFile) ReadDir(n int) ([]fs.DirEntry, error) {
	entries, err := f.f.ReadDir(n)
	if err != nil && err != io.EOF {
		err = f.l.pathError("readdir", f.name, err)
	}
	for i, e := range entries {
		entries[i] = localEntry{DirEntry: e, l: f.l, name: path.Join(f.name, e.Name())}
	}
	return entries, err
}

type localEntry struct {
	fs.DirEntry
	l    *Local
	name string
}

func (e localEntry) Info() (fs.FileInfo, error) {
	info, err := e.l.root.Lstat(e.name)
	if err != nil {
		return nil, e.l.pathError("lstat", e.name, err)
	}
	return info, nil
}

// runGrace is how long a command's output is still read after its process group was
// killed: a process that left the group (setsid) may hold the pipe open.
const runGrace = 500 * time.Millisecond
