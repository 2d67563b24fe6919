package workspace

import (
	"context"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// ReadResultArgs are the arguments of read_result.
type ReadResultArgs struct {
	// ID of the stored result, as the note of a cut result names it.
	ID string `json:"id" tool:"minLength=1,maxLength=128"`
	// Offset is the byte to start at, as the note or the last page says.
	Offset int64 `json:"offset,omitempty" tool:"default=0,minimum=0"`
	// Limit is the most bytes to return.
	Limit int64 `json:"limit,omitempty" tool:"default=16000,minimum=1,maximum=16000"`
}

// ReadResult reads on in a result that was too long to show at once and was kept under an
// id; the last line says which bytes it shows, of how many, and how to read on.
//
// Results are kept for the conversation that produced them, for a while (an hour by
// default); an expired one is gone, and the tool that produced it has to run again.
//
//tool:name read_result
//tool:hints readonly,idempotent
//tool:maxresult 20KiB
//tool:example "Read on after the preview" {"id":"res_0123456789abcdef01234567","offset":15800}
func (w *Workspace) ReadResult(ctx context.Context, args ReadResultArgs) (string, error) {
	page, err := runtime.ReadResult(ctx, args.ID, args.Offset, args.Limit+utf8.UTFMax)
	if errors.Is(err, runtime.ErrResultNotFound) {
		return "", modelError(runtime.KindNotFound, err, "no kept result %q in this conversation: it may have expired; run the tool that produced it again", args.ID)
	}
	if err != nil {
		// The store's own error may name its directory or server: the operator reads it in
		// Result.Err, the model only that the store failed.
		return "", modelError(runtime.KindUnavailable, err, "the result store failed; try again later")
	}
	if args.Offset >= page.Size {
		return "", modelError(runtime.KindInvalidInput, nil, "offset %d is past the end of result %s (%s)", args.Offset, args.ID, plural.Of(page.Size, "byte"))
	}
	text, from, to := wholeCharacters(page.Data, args.Offset, args.Limit, page.Size)
	footer := fmt.Sprintf("[%s (from %s): bytes %d-%d of %d", args.ID, page.Tool, from, to, page.Size)
	if to < page.Size {
		footer += toolHint(ctx, runtime.ReadResultTool, fmt.Sprintf("%%s with offset=%d reads on", to))
	}
	return string(text) + "\n" + footer + "]", nil
}

// wholeCharacters cuts a page read from offset (with a few bytes to spare) to at most limit
// bytes of whole UTF-8 characters: it skips the end of a character the offset fell into and
// stops before one the limit would cut. It returns the text and its byte range in the result.
func wholeCharacters(data []byte, offset, limit, size int64) ([]byte, int64, int64) {
	skip := 0
	for skip < len(data) && skip < utf8.UTFMax-1 && !utf8.RuneStart(data[skip]) {
		skip++
	}
	end := min(int64(len(data)), int64(skip)+limit)
	if offset+end < size && end < int64(len(data)) {
		for end > int64(skip) && !utf8.RuneStart(data[end]) {
			end--
		}
	}
	return data[skip:end], offset + int64(skip), offset + end
}
