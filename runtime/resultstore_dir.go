package runtime

import (
	"bufio"
	"cmp"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"slices"
	"sync"
	"time"
)

// DirResultStore is a ResultStore that keeps results as files in one directory, for results
// that should not take memory or should outlive the process (not a replica's neighbours: for
// those, use a shared store). The directory is created with mode 0700; an existing one that
// is not a plain directory, or that others may read or write, is refused, so a directory
// planted by another user is never used. Files are named by their opaque ids and removed when
// they expire (after MaxAge) or to keep the directory within MaxBytes. Room is made as
// MemoryResultStore makes it: a session holding its share (MaxSessionBytes) or more gives up
// its own oldest files first, then the sessions holding the most give up their oldest. The
// store knows the session of the files it wrote; the files left by an earlier process count
// as one session's, together.
type DirResultStore struct {
	Dir             string        // required
	MaxAge          time.Duration // 0: DefaultResultMaxAge
	MaxBytes        int64         // 0: DefaultResultMaxBytes
	MaxSessionBytes int64         // a session's share when the store is full; 0: half of MaxBytes

	mu       sync.Mutex
	root     *os.Root
	sessions map[string]string // the session of each file this store wrote, by id
}

// dirResultHeader is the first line of a stored file: what a ResultPage tells besides data.
type dirResultHeader struct {
	Session     string    `json:"session"`
	Tool        string    `json:"tool"`
	ContentType string    `json:"content_type"`
	Expires     time.Time `json:"expires"`
}

// open opens the directory once, creating it or checking that it is safe to use.
func (d *DirResultStore) open() (*os.Root, error) {
	if d.root != nil {
		return d.root, nil
	}
	if d.Dir == "" {
		return nil, errors.New("DirResultStore needs a Dir")
	}
	if err := os.Mkdir(d.Dir, 0o700); err != nil && !errors.Is(err, fs.ErrExist) {
		return nil, err
	}
	info, err := os.Lstat(d.Dir)
	if err != nil {
		return nil, err
	}
	if !info.IsDir() {
		return nil, fmt.Errorf("result directory %s is not a directory (a link or a file)", d.Dir)
	}
	if info.Mode().Perm()&0o077 != 0 {
		return nil, fmt.Errorf("result directory %s is open to other users (mode %v); use a new directory or chmod 700 it", d.Dir, info.Mode().Perm())
	}
	if err := checkOwner(info); err != nil {
		return nil, fmt.Errorf("result directory %s: %w", d.Dir, err)
	}
	root, err := os.OpenRoot(d.Dir)
	if err != nil {
		return nil, err
	}
	d.root = root
	return root, nil
}

func (d *DirResultStore) limits() (age time.Duration, size, share int64) {
	return (&MemoryResultStore{MaxAge: d.MaxAge, MaxBytes: d.MaxBytes, MaxSessionBytes: d.MaxSessionBytes}).limits()
}

// Put writes r to a new file, after removing expired files and, oldest first, as many others
// as the new one needs room for.
func (d *DirResultStore) Put(_ context.Context, r StoredResult) (string, error) {
	age, size, _ := d.limits()
	if int64(len(r.Data)) > size {
		return "", fmt.Errorf("result of %d bytes is larger than the store's %d", len(r.Data), size)
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	root, err := d.open()
	if err != nil {
		return "", err
	}
	if err := d.sweep(root, time.Now(), size-int64(len(r.Data)), r.Session, int64(len(r.Data))); err != nil {
		return "", err
	}
	id := NewResultID()
	header, err := json.Marshal(dirResultHeader{Session: r.Session, Tool: r.Tool, ContentType: r.ContentType, Expires: time.Now().Add(age)})
	if err != nil {
		return "", err
	}
	f, err := root.OpenFile(id, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return "", err
	}
	_, werr := f.Write(append(header, '\n'))
	if werr == nil {
		_, werr = f.Write(r.Data)
	}
	if cerr := f.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		_ = root.Remove(id)
		return "", werr
	}
	if d.sessions == nil {
		d.sessions = map[string]string{}
	}
	d.sessions[id] = r.Session
	return id, nil
}

// unknownSession holds, in a sweep, the files of sessions the store does not know (left by
// an earlier process): together, as one holder.
const unknownSession = "\x00unknown"

// sweep removes expired files, then makes room as MemoryResultStore does, until the
// directory holds at most keep bytes: files of session while it holds more than its share
// with the n bytes it adds, then the oldest file of whichever session holds the most.
func (d *DirResultStore) sweep(root *os.Root, now time.Time, keep int64, session string, n int64) error {
	entries, err := fs.ReadDir(root.FS(), ".")
	if err != nil {
		return err
	}
	age, _, share := d.limits()
	var total int64
	bySession := map[string]*holder{}
	files := map[string][]heldItem{} // by session
	listed := make(map[string]bool, len(entries))
	for _, e := range entries {
		if !ValidResultID(e.Name()) || !e.Type().IsRegular() {
			continue
		}
		info, err := e.Info()
		if err != nil {
			continue
		}
		if now.Sub(info.ModTime()) >= age {
			_ = root.Remove(e.Name())
			continue
		}
		listed[e.Name()] = true
		owner, ok := d.sessions[e.Name()]
		if !ok {
			owner = unknownSession
		}
		h := bySession[owner]
		if h == nil {
			h = &holder{session: owner, index: -1}
			bySession[owner] = h
		}
		files[owner] = append(files[owner], heldItem{id: e.Name(), size: info.Size(), seq: info.ModTime().UnixNano()})
		h.bytes += info.Size()
		total += info.Size()
	}
	for id := range d.sessions {
		if !listed[id] {
			delete(d.sessions, id) // expired, removed, or gone by other hands
		}
	}
	var hs holders
	for owner, h := range bySession {
		items := files[owner]
		slices.SortFunc(items, func(a, b heldItem) int { return cmp.Compare(a.seq, b.seq) })
		for _, it := range items {
			h.items.Push(it)
		}
		heap.Push(&hs, h)
	}
	putter := bySession[session]
	if putter == nil {
		putter = &holder{session: session, index: -1}
	}
	// keep leaves room for the new file's n bytes already.
	makeRoom(&hs, putter, n, share, func() bool { return total > keep }, nil, func(h *holder, it heldItem) {
		_ = root.Remove(it.id)
		delete(d.sessions, it.id)
		h.items.Pop()
		h.bytes -= it.size
		total -= it.size
		fix(&hs, h)
	})
	return nil
}

// Read returns a page of result id of session.
func (d *DirResultStore) Read(_ context.Context, session, id string, offset, limit int64) (ResultPage, error) {
	if !ValidResultID(id) {
		return ResultPage{}, ErrResultNotFound
	}
	d.mu.Lock()
	root, err := d.open()
	d.mu.Unlock()
	if err != nil {
		return ResultPage{}, err
	}
	f, err := root.Open(id)
	if err != nil {
		return ResultPage{}, ErrResultNotFound
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return ResultPage{}, err
	}
	br := bufio.NewReader(f)
	line, err := br.ReadBytes('\n')
	var h dirResultHeader
	if err != nil || json.Unmarshal(line, &h) != nil || h.Session != session || !time.Now().Before(h.Expires) {
		return ResultPage{}, ErrResultNotFound
	}
	p := ResultPage{Size: info.Size() - int64(len(line)), ContentType: h.ContentType, Tool: h.Tool, Expires: h.Expires}
	if offset < 0 || offset >= p.Size || limit <= 0 {
		return p, nil
	}
	p.Data = make([]byte, min(limit, p.Size-offset))
	if _, err := f.ReadAt(p.Data, int64(len(line))+offset); err != nil && !errors.Is(err, io.EOF) {
		return ResultPage{}, err
	}
	return p, nil
}
