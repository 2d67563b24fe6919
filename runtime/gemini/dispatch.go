package gemini

import (
	"context"
	"encoding/json"

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
// A client tool's outcome has Result.ClientCall set: it is left out of ResponsesJSON, and the
// host runs it and answers in the same content and in call order.
func Dispatch(ctx context.Context, reg *runtime.Registry, calls []runtime.Call) []Outcome {
	return reg.Dispatch(ctx, calls, func(t runtime.Tool) (runtime.Variant, bool) {
		v, _, ok := pick(t)
		return v, ok
	})
}

// ResponseObject is the "response" object of the functionResponse that answers with res:
// {"output": …} or {"error": …}. A structured result's output is its JSON, as a
// json.RawMessage sent as it is (numbers keep their text); a structured result that is not
// valid JSON is sent as its text.
func ResponseObject(res runtime.Result) map[string]any {
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

type wireResponse struct {
	FunctionResponse struct {
		ID       string         `json:"id,omitempty"`
		Name     string         `json:"name"`
		Response map[string]any `json:"response"`
	} `json:"functionResponse"`
}

// ResponsesJSON returns one functionResponse part per outcome, in order, as wire JSON: an
// array of {"functionResponse":{"id"?,"name","response"}} parts for the next "user" content.
// Client calls are left out (the host answers those).
func ResponsesJSON(outs []Outcome) ([]byte, error) {
	parts := []wireResponse{}
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			var p wireResponse
			p.FunctionResponse.ID, p.FunctionResponse.Name, p.FunctionResponse.Response = o.Call.ID, o.Call.Name, ResponseObject(o.Result)
			parts = append(parts, p)
		}
	}
	return json.Marshal(parts)
}
