package anthropic

import (
	"context"
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/parttext"
)

// Outcome is one call after Dispatch, with what the model should read.
type Outcome = runtime.Outcome

// Dispatch runs the calls of one model turn through reg.InvokeAll (concurrently, a
// Sequential tool alone) and returns their outcomes in call order. Anthropic receives optional
// properties as optional (not as nullable), so there is nothing to undo before validation.
// Set Session (and UserData) on the calls first to use the registry's per-session policies.
//
// A client tool's outcome has Result.ClientCall set: it is left out of ToolResultsJSON, and
// the host runs it and answers under the same id, in the same user message.
func Dispatch(ctx context.Context, reg *runtime.Registry, calls []runtime.Call) []Outcome {
	return reg.Dispatch(ctx, calls, nil)
}

// answered reports whether the adapter answers the outcome itself: a client call waits for
// the host.
func answered(o Outcome) bool { return o.Result.ClientCall == nil }

// Content is the text of the tool_result that answers with res: empty for an effect-only
// result, whose effects are the host's.
func Content(res runtime.Result) string {
	if res.EffectOnly() {
		return ""
	}
	return res.Text
}

// toolResult is a tool_result block on the wire.
type toolResult struct {
	Type      string `json:"type"`
	ToolUseID string `json:"tool_use_id"`
	Content   any    `json:"content,omitempty"` // a string, or []Block for a result with parts
	IsError   bool   `json:"is_error,omitempty"`
}

// ToolResultsJSON returns one tool_result block per outcome, in order, as wire JSON: an array
// of {"type":"tool_result","tool_use_id","content","is_error"?} for the content of the next
// user message. Client calls are left out (the host answers those). An effect-only result
// (or an empty text) gets no content: the effects are the host's, but the tool_use must
// still be answered. A result with parts gets content blocks (see Blocks).
func ToolResultsJSON(outs []Outcome) ([]byte, error) {
	blocks := []toolResult{}
	for _, o := range outs {
		if answered(o) {
			b := toolResult{Type: "tool_result", ToolUseID: o.Call.ID, IsError: o.Result.IsError}
			if content := Blocks(o.Result); content != nil {
				b.Content = content
			} else if text := Content(o.Result); text != "" {
				b.Content = text
			}
			blocks = append(blocks, b)
		}
	}
	return json.Marshal(blocks)
}

// Block is a content block of a tool_result on the wire: text, an image or a document.
type Block struct {
	Type   string  `json:"type"` // "text", "image" or "document"
	Text   string  `json:"text,omitempty"`
	Source *Source `json:"source,omitempty"`
}

// Source is the base64 source of an image or a PDF document block.
type Source struct {
	Type      string `json:"type"` // "base64"
	MediaType string `json:"media_type"`
	Data      string `json:"data"`
}

// Blocks returns the content blocks of the tool_result answering a result with parts, or nil
// for a result without (its content is the text, Content): the text first, then each part as
// Anthropic takes it. Images (JPEG, PNG, GIF, WebP) become image blocks and PDFs document
// blocks, both base64; resource links and embedded text resources become text; audio and
// other binary data cannot be sent, and a text block says so, so the model knows.
func Blocks(res runtime.Result) []Block {
	if len(res.Parts) == 0 {
		return nil
	}
	var out []Block
	if res.Text != "" {
		out = append(out, Block{Type: "text", Text: res.Text})
	}
	for _, p := range res.Parts {
		data, mime, binary := parttext.Binary(p)
		switch {
		case binary && parttext.WebImages[mime]:
			out = append(out, Block{Type: "image", Source: &Source{Type: "base64", MediaType: mime, Data: parttext.Base64(data)}})
		case binary && mime == "application/pdf":
			out = append(out, Block{Type: "document", Source: &Source{Type: "base64", MediaType: mime, Data: parttext.Base64(data)}})
		case binary:
			out = append(out, Block{Type: "text", Text: parttext.LeftOut(p, "Anthropic tool results take images (JPEG, PNG, GIF, WebP) and PDFs only")})
		default:
			out = append(out, Block{Type: "text", Text: parttext.AsText(p, "Anthropic")})
		}
	}
	return out
}
