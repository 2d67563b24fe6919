package gemini

import (
	"bytes"
	"context"
	"encoding/json"

	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/runtime"
)

// Outcome is one call after Dispatch, with what the model should read.
type Outcome = runtime.Outcome

// Dispatch runs the calls of one model turn through reg.InvokeAll (concurrently, a
// Sequential tool alone) and returns their outcomes in call order. Before validation it
// restores each call's arguments from the variant the tool is declared with
// (runtime.Variant.Restore): renamed properties get their names back. Set Session (and
// UserData) on the calls first to use the registry's per-session policies.
//
// A client tool's outcome has Result.ClientCall set: it is left out of Responses, and the
// host runs it and answers with Response, in the same content and in call order.
func Dispatch(ctx context.Context, reg *runtime.Registry, calls []runtime.Call) []Outcome {
	return reg.Dispatch(ctx, calls, func(t runtime.Tool) (runtime.Variant, bool) {
		v, _, ok := pick(t)
		return v, ok
	})
}

// response is the "response" object of a functionResponse: {"output": …} or {"error": …}. A
// structured result's output is its JSON value: decoded for the SDK (numbers as json.Number,
// keeping their exact text), or, with raw (the wire form), the JSON itself, sent as it is. A
// structured result that is not valid JSON is sent as its text.
func response(res runtime.Result, raw bool) map[string]any {
	switch {
	case res.EffectOnly():
		// Empty output: the effects are the host's, but Gemini wants one response per call
		// (and the SDK drops an empty response object).
		return map[string]any{"output": ""}
	case res.IsError:
		return map[string]any{"error": res.Text}
	case res.Structured == nil:
	case raw:
		if json.Valid(res.Structured) {
			return map[string]any{"output": res.Structured}
		}
	default:
		dec := json.NewDecoder(bytes.NewReader(res.Structured))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			return map[string]any{"output": v}
		}
	}
	return map[string]any{"output": res.Text}
}

// Response returns the functionResponse part that answers call with res.
func Response(call runtime.Call, res runtime.Result) *genai.Part {
	return &genai.Part{FunctionResponse: &genai.FunctionResponse{ID: call.ID, Name: call.Name, Response: response(res, false)}}
}

// Responses returns one functionResponse part per outcome, in order, leaving out client calls
// (the host answers those). Send them as genai.NewContentFromParts(parts, genai.RoleUser).
func Responses(outs []Outcome) []*genai.Part {
	var parts []*genai.Part
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			parts = append(parts, Response(o.Call, o.Result))
		}
	}
	return parts
}

type wireResponse struct {
	FunctionResponse struct {
		ID       string         `json:"id,omitempty"`
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
	} `json:"functionResponse"`
}

// ResponsesJSON returns Responses as wire JSON: an array of
// {"functionResponse":{"id"?,"name","response"}} parts for the next "user" content.
func ResponsesJSON(outs []Outcome) ([]byte, error) {
	parts := []wireResponse{}
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			var p wireResponse
			p.FunctionResponse.ID, p.FunctionResponse.Name, p.FunctionResponse.Response = o.Call.ID, o.Call.Name, response(o.Result, true)
			parts = append(parts, p)
		}
	}
	return json.Marshal(parts)
}
