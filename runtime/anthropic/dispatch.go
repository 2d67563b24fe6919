package anthropic

import (
	"context"
	"encoding/json"

	"github.com/toolgen-go/toolgen/runtime"
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
	Content   string `json:"content,omitempty"`
	IsError   bool   `json:"is_error,omitempty"`
}

// ToolResultsJSON returns one tool_result block per outcome, in order, as wire JSON: an array
// of {"type":"tool_result","tool_use_id","content","is_error"?} for the content of the next
// user message. Client calls are left out (the host answers those). An effect-only result
// (or an empty text) gets no content: the effects are the host's, but the tool_use must
// still be answered.
func ToolResultsJSON(outs []Outcome) ([]byte, error) {
	blocks := []toolResult{}
	for _, o := range outs {
		if answered(o) {
			b := toolResult{Type: "tool_result", ToolUseID: o.Call.ID, IsError: o.Result.IsError}
			b.Content = Content(o.Result)
			blocks = append(blocks, b)
		}
	}
	return json.Marshal(blocks)
}
