package runtime

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"
)

// Defaults of the result stores.
const (
	DefaultResultMaxAge   = time.Hour // how long a stored result stays readable
	DefaultResultMaxBytes = 64 << 20  // bytes a store keeps in all before it drops the oldest
)

// ResultStore keeps the full text of results cut to their tool's size cap, under opaque ids,
// so that the model (through a tool such as the workspace toolkit's read_result) or the host
// (an MCP server's resources/read) can read them in parts. A store never names a host path to
// anyone, scopes every result to the session that produced it, and forgets results when they
// expire or when it needs room. Implementations must be safe for concurrent use.
type ResultStore interface {
	// Put keeps a full result and returns its opaque id.
	Put(ctx context.Context, r StoredResult) (id string, err error)
	// Read returns up to limit bytes of result id from byte offset (limit <= 0: none, only the
	// page's facts). The id must belong to session: ErrResultNotFound when it is unknown,
	// expired or another session's.
	Read(ctx context.Context, session, id string, offset, limit int64) (ResultPage, error)
}

// StoredResult is a full result handed to a ResultStore.
type StoredResult struct {
	Session, Tool, CallID string
	// ContentType is "text/plain; charset=utf-8", or "application/json" for the JSON of a
	// structured result.
	ContentType string
	Data        []byte
}

// Content types of stored results.
const (
	ContentTypeText = "text/plain; charset=utf-8"
	ContentTypeJSON = "application/json"
)

// ResultPage is a part of a stored result.
type ResultPage struct {
	Data        []byte // the bytes asked for (fewer at the end of the result)
	Size        int64  // the size of the whole result
	ContentType string
	Tool        string
	Expires     time.Time
}

// ErrResultNotFound is what a ResultStore returns for an id it does not hold for the session:
// unknown, expired, dropped for room, or another session's. It does not say which.
var ErrResultNotFound = errors.New("no stored result has this id in this session (it may have expired)")

// ReadResult reads a stored result of the calling session from inside a handler, from the
// store of the registry that runs the call (WithResultStore). It is how a read_result tool
// pages through a result that was cut to its size cap. Outside a call it finds nothing.
func ReadResult(ctx context.Context, id string, offset, limit int64) (ResultPage, error) {
	st, ok := ctx.Value(callKey{}).(*callState)
	if !ok || st.info.reg == nil {
		return ResultPage{}, ErrResultNotFound
	}
	return st.info.reg.ResultStore().Read(ctx, st.info.session, id, offset, limit)
}

// ResultStore returns the registry's result store: the one set with WithResultStore, else a
// MemoryResultStore with the default bounds, created on first use. Servers use it to serve
// stored results outside a call (an MCP resources/read).
func (r *Registry) ResultStore() ResultStore {
	r.mu.RLock()
	s := r.config().results
	r.mu.RUnlock()
	if s != nil {
		return s
	}
	r.resultsOnce.Do(func() { r.results = &MemoryResultStore{} })
	return r.results
}

// NewResultID returns an opaque, unguessable id, "res_" and 24 hex digits from crypto/rand:
// ids are the only key to a stored result within a session, and a model may try others.
// Stores of other packages use it so that every store's ids have one form.
func NewResultID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+)
	return "res_" + hex.EncodeToString(b[:])
}

// ValidResultID reports whether id has the form NewResultID gives: a store checks it before
// what a model sent becomes part of a key or a file name.
func ValidResultID(id string) bool {
	if len(id) != 4+24 || id[:4] != "res_" {
		return false
	}
	_, err := hex.DecodeString(id[4:])
	return err == nil
}

// page cuts the part [offset, offset+limit) out of data.
func page(data []byte, offset, limit int64) []byte {
	size := int64(len(data))
	if offset < 0 || offset >= size || limit <= 0 {
		return nil
	}
	end := min(size, offset+limit)
	return data[offset:end]
}

// capResult cuts a result over the tool's cap to a preview. A successful result's full text
// goes to the registry's ResultStore and the model reads where to find it; an error result is
// only cut (an error text the model needs is short, and storing failures invites filling the
// store with them). The notice counts against the cap too, so what the model reads stays
// within it (a cap too small for any preview still gets the notice).
func (r *Registry) capResult(ctx context.Context, cfg *registryConfig, tool *Tool, call Call, res *Result) {
	limit := cfg.maxResultOf(tool)
	if limit <= 0 || int64(len(res.Text)) <= limit {
		return
	}
	full := res.Text
	var note string
	off := &Offloaded{Size: len(full)}
	if res.IsError {
		note = "The rest of the error text was left out."
	} else {
		contentType := ContentTypeText
		if res.Structured != nil {
			contentType = ContentTypeJSON
		}
		reader, _ := r.NameOf(ReadResultTool) // under the name it is registered by
		id, err := storeResult(ctx, r.ResultStore(), StoredResult{
			Session: call.Session, Tool: tool.Name, CallID: call.ID, ContentType: contentType, Data: []byte(full),
		})
		switch {
		case err != nil:
			off.Err = err
			note = "The rest could not be kept."
		case reader != "":
			off.ID = id
			note = fmt.Sprintf("The full result is kept as %q for a while; call %s with {\"id\":%q,\"offset\":SHOWN} to read on.", id, reader, id)
		default:
			off.ID = id
			note = fmt.Sprintf("The full result is kept as %q for a while.", id)
		}
	}
	const noticeRoom = 120 // the notice without the note
	shown := max(int(limit)-noticeRoom-len(note), 0)
	for shown > 0 && !utf8.RuneStart(full[shown]) {
		shown--
	}
	off.Shown = shown
	note = replaceShown(note, shown)
	if off.ID != "" {
		off.Note = note
	}
	res.Text = fmt.Sprintf("%s\n\n[Result truncated: showing the first %d of %d bytes. %s]", full[:shown], shown, len(full), note)
	res.Structured = nil // a cut JSON document is no longer structured data; the store has it whole
	res.Offloaded = off
}

// ReadResultTool is the name of the tool that reads stored results back (the workspace
// toolkit's read_result). When a registry has a tool of this name, or one renamed from it
// (Tool.DeclaredName), the note of a cut result tells the model how to call it, by the name
// it is registered under.
const ReadResultTool = "read_result"

// replaceShown puts the preview's length where the note says SHOWN: the note is written
// before the preview's length is known, and its length decides it.
func replaceShown(note string, shown int) string {
	return strings.Replace(note, "SHOWN", strconv.Itoa(shown), 1)
}

// storeResult calls the store, turning a panic into an error: a broken store must not take
// the host down.
func storeResult(ctx context.Context, s ResultStore, res StoredResult) (id string, err error) {
	defer func() {
		if v := recover(); v != nil {
			id, err = "", fmt.Errorf("result store panicked: %v", v)
		}
	}()
	return s.Put(ctx, res)
}
