package workspace

//go:generate go tool toolgen

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"strings"
	"syscall"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
)

// Workspace holds the tools of this package; w.Tools() returns them for
// runtime.Registry.Add. Its zero value works with a sandbox chosen per call.
type Workspace struct {
	// Sandbox is used by calls that bring none of their own (see the package doc); nil
	// makes such calls fail.
	Sandbox sandbox.Sandbox
}

// New returns a workspace over sb; pass nil to choose the sandbox per call.
func New(sb sandbox.Sandbox) *Workspace { return &Workspace{Sandbox: sb} }

// sandbox returns the sandbox of the call in ctx: the one in ctx (sandbox.NewContext), else
// the call's UserData when it is one, else w.Sandbox.
func (w *Workspace) sandbox(ctx context.Context) (sandbox.Sandbox, error) {
	if sb, ok := sandbox.FromContext(ctx); ok {
		return sb, nil
	}
	if info, ok := runtime.CallInfoFrom(ctx); ok {
		if sb, ok := info.UserData.(sandbox.Sandbox); ok {
			return sb, nil
		}
	}
	if w != nil && w.Sandbox != nil { // (*Workspace)(nil).Tools() works like New(nil)
		return w.Sandbox, nil
	}
	// The host's mistake, not the model's: say little, keep the detail for the operator.
	return nil, runtime.Permanent(&runtime.ModelError{
		Kind:    runtime.KindInternal,
		Message: "the workspace tools are not available in this conversation",
		Err:     errors.New("workspace: no sandbox in the call's context, its UserData or the Workspace"),
	})
}

// resolve returns the call's sandbox and the sandbox name of the path the model sent.
func (w *Workspace) resolve(ctx context.Context, p string) (sandbox.Sandbox, string, error) {
	sb, err := w.sandbox(ctx)
	if err != nil {
		return nil, "", err
	}
	name, err := sandbox.Clean(p)
	if err != nil {
		return nil, "", fileError(ctx, p, err)
	}
	return sb, name, nil
}

// open opens the file or directory at the path the model sent, for reading.
func (w *Workspace) open(ctx context.Context, p string) (fs.File, string, error) {
	sb, name, err := w.resolve(ctx, p)
	if err != nil {
		return nil, "", err
	}
	f, err := sb.Open(name)
	if err != nil {
		return nil, "", fileError(ctx, p, err)
	}
	return f, name, nil
}

// modelError is an error the model reads as text, with err kept for the operator.
func modelError(kind runtime.ErrorKind, err error, format string, args ...any) error {
	return &runtime.ModelError{Kind: kind, Message: fmt.Sprintf(format, args...), Err: err}
}

// fileError words a sandbox error about the path p for the model.
func fileError(ctx context.Context, p string, err error) error {
	var written *runtime.ModelError
	var quota *sandbox.QuotaError
	switch {
	case errors.As(err, &written):
		return err
	case errors.Is(err, sandbox.ErrEscape):
		return modelError(runtime.KindPermission, err,
			"%q is outside the workspace: paths are relative to the workspace root (e.g. src/main.go), without .. above it, and symbolic links out of it are not followed", p)
	case errors.Is(err, sandbox.ErrHardLink):
		return modelError(runtime.KindPermission, err, "%s has several hard links, and the workspace does not read or edit such files", p)
	case errors.Is(err, sandbox.ErrNotRegular):
		return modelError(runtime.KindInvalidInput, err, "%s is not a file or a directory (a pipe, a device or a socket); the workspace does not open those", p)
	case errors.As(err, &quota):
		return modelError(runtime.KindLimit, err,
			"%s was not written: it would add %d bytes to the workspace, and the file tools may add at most %d bytes to it in all, of which %d are left. "+
				"Write less, or empty files no longer needed (an emptied file gives its bytes back)", p, quota.Need, quota.Limit, max(quota.Limit-quota.Used, 0))
	case errors.Is(err, sandbox.ErrNoRun):
		return modelError(runtime.KindUnavailable, err, "this workspace cannot run commands")
	case errors.Is(err, sandbox.ErrNoIsolation):
		// The operator's to fix, and the same on every call: not retried. The model reads
		// what to tell the user; the operator's log has what was missing.
		return runtime.Permanent(modelError(runtime.KindUnavailable, err,
			"the shell is unavailable: commands run only in isolation from the host, and this host cannot isolate them. "+
				"Tell the user; the operator can run the program on Linux 5.12 or later with user namespaces enabled "+
				"(and Linux 6.14 or later when it runs as root), or choose unconfined host execution "+
				"(sandbox.LocalOptions.UnconfinedHostExecution), which gives the model the host"))
	case errors.Is(err, fs.ErrNotExist):
		return modelError(runtime.KindNotFound, err, "%s does not exist%s", p, whatExistsHint(ctx))
	case errors.Is(err, fs.ErrPermission):
		return modelError(runtime.KindPermission, err, "%s cannot be accessed: permission denied", p)
	case errors.Is(err, fs.ErrInvalid):
		return modelError(runtime.KindInvalidInput, err, "%q is not a valid path in the workspace", p)
	case errors.Is(err, syscall.ENOTDIR), strings.HasSuffix(err.Error(), "not a directory"):
		return modelError(runtime.KindInvalidInput, err, "%s: a part of this path is a file, not a directory", p)
	case errors.Is(err, syscall.EISDIR), errors.Is(err, errIsDirectory), strings.HasSuffix(err.Error(), "is a directory"):
		return modelError(runtime.KindInvalidInput, err, "%s is a directory%s", p, toolHint(ctx, "list_dir", "%s lists it"))
	case errors.Is(err, context.DeadlineExceeded), errors.Is(err, context.Canceled):
		return err
	}
	// Sandbox errors name files by their sandbox names (see package sandbox), so the text is
	// safe to show.
	return modelError(runtime.KindInternal, err, "%s: %v", p, err)
}
