package runtime

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"
)

// Offloader keeps the full text of a result larger than its tool's size cap. It returns a
// sentence telling the model how to get the rest; the model reads a preview, the full size
// and that sentence.
type Offloader interface {
	Offload(ctx context.Context, call Call, text string) (note string, err error)
}

// FileOffloader is the default Offloader: it writes each result to a new file under Dir
// (created when missing; the system's temporary directory joined with "toolgen-results" when
// empty), readable only by its owner, and tells the model the file's path. Give the model a
// tool that reads files under Dir, or the note is of no use to it.
type FileOffloader struct{ Dir string }

func (f FileOffloader) Offload(_ context.Context, call Call, text string) (string, error) {
	dir := f.Dir
	if dir == "" {
		dir = filepath.Join(os.TempDir(), "toolgen-results")
	}
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	file, err := os.CreateTemp(dir, fileSafe(call.Name)+"-"+fileSafe(call.ID)+"-*.txt")
	if err != nil {
		return "", err
	}
	_, werr := file.WriteString(text)
	if cerr := file.Close(); werr == nil {
		werr = cerr
	}
	if werr != nil {
		os.Remove(file.Name())
		return "", werr
	}
	return fmt.Sprintf("The full result is in the file %s; read it in parts if you need the rest.", file.Name()), nil
}

// fileSafe keeps the characters of s that are safe in a file name on every system.
func fileSafe(s string) string {
	s = strings.Map(func(r rune) rune {
		if r < utf8.RuneSelf && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-') {
			return r
		}
		return -1
	}, s)
	return s[:min(len(s), 64)]
}

// capResult cuts a result over the tool's cap to a preview and hands the full text to the
// offloader. The notice after the preview counts against the cap too, so what the model
// reads stays within it (a cap too small for any preview still gets the notice).
func (r *Registry) capResult(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, res Result) Result {
	limit := cfg.maxResultOf(tool)
	if limit <= 0 || int64(len(res.Text)) <= limit {
		return res
	}
	var offloader Offloader = FileOffloader{}
	if cfg.offloader != nil {
		offloader = cfg.offloader
	}
	full := res.Text
	note, err := offload(ctx, offloader, call, full)
	if err != nil {
		note = "The rest could not be kept."
	}
	const noticeRoom = 300 // the notice without the note
	shown := max(int(limit)-noticeRoom-len(note), 0)
	for shown > 0 && !utf8.RuneStart(full[shown]) {
		shown--
	}
	res.Text = fmt.Sprintf("%s\n\n[Result truncated: showing the first %d of %d bytes. %s]", full[:shown], shown, len(full), note)
	res.Structured = nil // a cut JSON document is no longer structured data
	res.Offloaded = &Offloaded{Size: len(full), Shown: shown, Err: err}
	if err == nil {
		res.Offloaded.Note = note
	}
	return res
}

// offload calls the offloader, turning a panic into an error: a broken offloader must not
// take the host down.
func offload(ctx context.Context, o Offloader, call Call, text string) (note string, err error) {
	defer func() {
		if v := recover(); v != nil {
			note, err = "", fmt.Errorf("offloader panicked: %v", v)
		}
	}()
	return o.Offload(ctx, call, text)
}
