package openai

import (
	"context"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Outcome is one call after Dispatch, with what the model should read.
type Outcome = runtime.Outcome

// Dispatch runs the calls of one model turn through reg.InvokeAll (concurrently, a
// Sequential tool alone) and returns their outcomes in call order. Before validation it
// restores each call's arguments from the tool's OpenAI variant (runtime.Variant.Restore):
// a null where strict mode made an optional property nullable becomes an absent property.
// Set Session (and UserData) on the calls first to use the registry's per-session policies.
//
// A client tool's outcome has Result.ClientCall set: it is left out of ChatToolMessagesJSON
// and ResponsesOutputsJSON, and the host runs it and answers under the same call id.
func Dispatch(ctx context.Context, reg *runtime.Registry, calls []runtime.Call) []Outcome {
	return reg.Dispatch(ctx, calls, func(t runtime.Tool) (runtime.Variant, bool) {
		v, ok := t.Variants[runtime.VariantOpenAI]
		return v, ok
	})
}

// answered reports whether the adapter answers the outcome itself: a client call waits for
// the host.
func answered(o Outcome) bool { return o.Result.ClientCall == nil }

// Content is what the model reads for a result. OpenAI has no error flag, so an error says so
// in its first word. An effect-only result reads as empty: the effects are the host's, but
// the call id must still be answered or the API refuses the next request.
func Content(res runtime.Result) string {
	if res.EffectOnly() {
		return ""
	}
	if res.IsError && !strings.HasPrefix(res.Text, "Error") {
		return "Error: " + res.Text
	}
	return res.Text
}

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
			msgs = append(msgs, toolMessage{Role: "tool", ToolCallID: o.Call.ID, Content: Content(o.Result)})
		}
	}
	return json.Marshal(msgs)
}

// callOutput is a Responses function_call_output input item on the wire.
type callOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// ResponsesOutputsJSON returns one function_call_output item per outcome, in order, as wire
// JSON: an array of {"type":"function_call_output","call_id","output"}. Client calls are left
// out (the host answers those).
func ResponsesOutputsJSON(outs []Outcome) ([]byte, error) {
	items := []callOutput{}
	for _, o := range outs {
		if answered(o) {
			items = append(items, callOutput{Type: "function_call_output", CallID: o.Call.ID, Output: Content(o.Result)})
		}
	}
	return json.Marshal(items)
}
