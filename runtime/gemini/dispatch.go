package gemini

import (
	"cmp"
	"context"
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/parttext"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Outcome is one call after Dispatch, with what the model should read.
type Outcome = runtime.Outcome

// Dispatch runs the calls of one model turn through reg.InvokeAll (concurrently, a
// Sequential tool alone) and returns their outcomes in call order. Before validation it
// restores each call's arguments from the variant the tool is declared with
// (variant.Variant.Restore): renamed properties get their names back. Set Session (and
// UserData) on the calls first to use the registry's per-session policies.
//
// A client tool's outcome has Result.ClientCall set: it is left out of ResponsesJSON, and the
// host runs it and answers in the same content and in call order.
func Dispatch(ctx context.Context, reg *runtime.Registry, calls []runtime.Call) []Outcome {
	return reg.Dispatch(ctx, calls, func(t runtime.Tool) (variant.Variant, bool) {
		v, _, ok := pick(t)
		return v, ok
	})
}

// ResponseObject is the "response" object of the functionResponse that answers with res:
// {"output": …} or {"error": …}. A structured result's output is its JSON, as a
// json.RawMessage sent as it is (numbers keep their text); a structured result that is not
// valid JSON is sent as its text. Parts Gemini does not take as function response parts
// (see InlineParts) are described under "attachments", one text each.
func ResponseObject(res runtime.Result) map[string]any {
	obj := responseValue(res)
	if _, notes := InlineParts(res); len(notes) > 0 {
		obj["attachments"] = notes
	}
	return obj
}

func responseValue(res runtime.Result) map[string]any {
	switch {
	case res.EffectOnly():
		// Empty output: the effects are the host's, but Gemini wants one response per call
		// (and the SDK drops an empty response object).
		return map[string]any{"output": ""}
	case res.IsError:
		return map[string]any{"error": res.Text}
	case res.Structured != nil && json.Valid(res.Structured):
		return map[string]any{"output": json.RawMessage(res.Structured)}
	}
	return map[string]any{"output": res.Text}
}

// InlinePart is a part of a functionResponse on the wire: inline data.
type InlinePart struct {
	InlineData InlineData `json:"inlineData"`
}

// InlineData is the data of an InlinePart (Data encodes as base64, as the API takes bytes).
type InlineData struct {
	MIMEType    string `json:"mimeType"`
	Data        []byte `json:"data"`
	DisplayName string `json:"displayName,omitempty"`
}

// inlineTypes are the types Gemini reads in a function response's parts.
var inlineTypes = map[string]bool{"image/png": true, "image/jpeg": true, "image/webp": true, "application/pdf": true}

// InlineParts splits a result's parts between the functionResponse's parts (images in PNG,
// JPEG or WebP and PDFs, as inline data, which Gemini 3 models read) and text notes for the
// rest: resource links and embedded text resources as text, audio and other binary data as a
// note that it was left out.
func InlineParts(res runtime.Result) (parts []InlinePart, notes []string) {
	for _, p := range res.Parts {
		data, mime, binary := parttext.Binary(p)
		switch {
		case binary && inlineTypes[mime]:
			parts = append(parts, InlinePart{InlineData: InlineData{MIMEType: mime, Data: data, DisplayName: cmp.Or(p.Name, p.URI)}})
		case binary:
			notes = append(notes, parttext.LeftOut(p, "Gemini function responses take images (PNG, JPEG, WebP) and PDFs only"))
		default:
			notes = append(notes, parttext.AsText(p, "Gemini"))
		}
	}
	return parts, notes
}

type wireResponse struct {
	FunctionResponse struct {
		ID       string         `json:"id,omitempty"`
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
		Parts    []InlinePart   `json:"parts,omitempty"`
	} `json:"functionResponse"`
}

// ResponsesJSON returns one functionResponse part per outcome, in order, as wire JSON: an
// array of {"functionResponse":{"id"?,"name","response","parts"?}} parts for the next "user"
// content. Client calls are left out (the host answers those).
func ResponsesJSON(outs []Outcome) ([]byte, error) {
	parts := []wireResponse{}
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			var p wireResponse
			p.FunctionResponse.ID, p.FunctionResponse.Name, p.FunctionResponse.Response = o.Call.ID, o.Call.Name, ResponseObject(o.Result)
			p.FunctionResponse.Parts, _ = InlineParts(o.Result)
			parts = append(parts, p)
		}
	}
	return json.Marshal(parts)
}
