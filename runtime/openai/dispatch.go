package openai

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/parttext"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Outcome is one call after Dispatch, with what the model should read.
type Outcome = runtime.Outcome

// Dispatch runs the calls of one model turn through reg.InvokeAll (concurrently, a
// Sequential tool alone) and returns their outcomes in call order. Before validation it
// restores each call's arguments from the tool's OpenAI variant (variant.Variant.Restore):
// a null where strict mode made an optional property nullable becomes an absent property.
// Set Session (and UserData) on the calls first to use the registry's per-session policies.
//
// A client tool's outcome has Result.ClientCall set: it is left out of ChatToolMessagesJSON
// and ResponsesOutputsJSON, and the host runs it and answers under the same call id.
func Dispatch(ctx context.Context, reg *runtime.Registry, calls []runtime.Call) []Outcome {
	return reg.Dispatch(ctx, calls, func(t runtime.Tool) (variant.Variant, bool) {
		return t.Variant(variant.OpenAI)
	})
}

// answered reports whether the adapter answers the outcome itself: a client call waits for
// the host.
func answered(o Outcome) bool { return o.Result.ClientCall == nil }

// Content is what the model reads for a result. OpenAI has no error flag, so an error says so
// in its first word. An effect-only result reads as empty: the effects are the host's, but
// the call id must still be answered or the API refuses the next request.
func Content(res runtime.Result) string { return parttext.Content(res) }

// toolMessage is a Chat Completions tool message on the wire.
type toolMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

// ChatToolMessagesJSON returns one tool message per outcome, in order, as wire JSON: an array
// of {"role":"tool","tool_call_id","content"}. Client calls are left out (the host answers
// those). Send them right after the assistant message that made the calls.
func ChatToolMessagesJSON(outs []Outcome) ([]byte, error) {
	msgs := []toolMessage{}
	for _, o := range outs {
		if answered(o) {
			msgs = append(msgs, toolMessage{Role: "tool", ToolCallID: o.Call.ID, Content: ChatContent(o.Result)})
		}
	}
	return json.Marshal(msgs)
}

// ChatContent is the content of the Chat Completions tool message that answers with res.
// Tool messages carry text only, so a result's parts follow its text as text: a resource link
// and an embedded text resource as such, an image, audio or other binary data as a note that
// it was left out (a host that wants the model to see an image sends it in a user message).
func ChatContent(res runtime.Result) string { return parttext.TextOnly(res, "Chat Completions") }

// callOutput is a Responses function_call_output input item on the wire.
type callOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output any    `json:"output"` // a string, or []OutputItem for a result with parts
}

// ResponsesOutputsJSON returns one function_call_output item per outcome, in order, as wire
// JSON: an array of {"type":"function_call_output","call_id","output"}. Client calls are left
// out (the host answers those). A result with parts gets an array output (see OutputItems).
func ResponsesOutputsJSON(outs []Outcome) ([]byte, error) {
	items := []callOutput{}
	for _, o := range outs {
		if answered(o) {
			item := callOutput{Type: "function_call_output", CallID: o.Call.ID, Output: Content(o.Result)}
			if parts := OutputItems(o.Result); parts != nil {
				item.Output = parts
			}
			items = append(items, item)
		}
	}
	return json.Marshal(items)
}

// OutputItem is an item of a function_call_output's array output on the wire: input_text,
// input_image or input_file.
type OutputItem struct {
	Type     string `json:"type"`
	Text     string `json:"text,omitempty"`
	ImageURL string `json:"image_url,omitempty"`
	FileData string `json:"file_data,omitempty"`
	Filename string `json:"filename,omitempty"`
}

// OutputItems returns the array output of the function_call_output answering a result with
// parts, or nil for a result without (its output is the text, Content): the text first, then
// each part as the Responses API takes it. Images (JPEG, PNG, GIF, WebP) become input_image
// and PDFs input_file, both as data URLs; resource links and embedded text resources become
// input_text; audio and other binary data cannot be sent, and an input_text says so.
func OutputItems(res runtime.Result) []OutputItem {
	if len(res.Parts) == 0 {
		return nil
	}
	var out []OutputItem
	if text := Content(res); text != "" {
		out = append(out, OutputItem{Type: "input_text", Text: text})
	}
	for _, p := range res.Parts {
		data, mime, binary := parttext.Binary(p)
		switch {
		case binary && parttext.WebImages[mime]:
			out = append(out, OutputItem{Type: "input_image", ImageURL: parttext.DataURL(mime, data)})
		case binary && mime == "application/pdf":
			out = append(out, OutputItem{Type: "input_file", FileData: parttext.DataURL(mime, data), Filename: fileName(p.URI, "document.pdf")})
		case binary:
			out = append(out, OutputItem{Type: "input_text", Text: parttext.LeftOut(p, "function call outputs take images (JPEG, PNG, GIF, WebP) and PDFs only")})
		default:
			out = append(out, OutputItem{Type: "input_text", Text: parttext.AsText(p, "OpenAI")})
		}
	}
	return out
}

// fileName is the last element of uri's path, or fallback.
func fileName(uri, fallback string) string {
	if i := strings.LastIndexByte(uri, '/'); i >= 0 && i < len(uri)-1 {
		return uri[i+1:]
	}
	return fallback
}
