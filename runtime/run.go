package runtime

import (
	"cmp"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"
)

// RunInfo is what the host knows of the model run a call comes from: which run and agent,
// which model, at which turn, and the tokens of the model response that made the call. Every
// field is optional (zero: unknown). The host sets it per call (Call.Run, often one RunInfo
// shared by the calls of a turn); the provider adapters fill Model and the token counts
// where the response they parse carries them (runtime/openai's ParseResponsesCalls,
// ParseChatCompletionCalls and stream assemblers, runtime/anthropic's ParseCalls and Stream,
// runtime/gemini's ParseCalls); runtime/otel records it on the call's span; a serving MCP server reads
// it from a tools/call's _meta (runtime/mcp), which runtime/mcp/mount sends. Handlers read it
// in CallInfo.Run, observers in Event.Run. It never reaches the model.
//
//	run := &runtime.RunInfo{RunID: "run-42", AgentID: "planner", Turn: 3}
//	calls, _ := toolanthropic.ParseCalls(message) // each with Run.Model and the tokens
//	for i := range calls {
//		calls[i].Run = calls[i].Run.With(run)
//	}
type RunInfo struct {
	RunID   string // the host's id of the run (one request of the user, its turns and calls)
	AgentID string // the agent of the run that made the call (a sub-agent has its own)
	Model   string // the model that made the call, as its provider names it
	Turn    int    // the model turn the call came from, 1 for the first
	// InputTokens and OutputTokens are the usage of the model response that made the call,
	// as its provider reports it (the prompt, cached tokens included, and the completion).
	InputTokens, OutputTokens int64
}

// With returns r with the fields that o sets and r does not: the adapters' Model and tokens
// joined with the host's run, agent and turn. Either may be nil; the result is nil when both
// are.
func (r *RunInfo) With(o *RunInfo) *RunInfo {
	if r == nil {
		return o
	}
	if o == nil {
		return r
	}
	out := *r
	out.RunID = cmp.Or(out.RunID, o.RunID)
	out.AgentID = cmp.Or(out.AgentID, o.AgentID)
	out.Model = cmp.Or(out.Model, o.Model)
	if out.Turn == 0 {
		out.Turn = o.Turn
	}
	if out.InputTokens == 0 && out.OutputTokens == 0 {
		out.InputTokens, out.OutputTokens = o.InputTokens, o.OutputTokens
	}
	return &out
}

// MaxRunText is the most bytes of each text of a RunInfo that comes from outside the
// process (an MCP client's _meta): ids and model names are short.
const MaxRunText = 256

// Check reports what makes r unfit to come from an untrusted peer: a text over MaxRunText
// bytes, holding a control character or not UTF-8, or a negative number. Servers check a
// RunInfo they read off the wire with it before a handler sees it.
func (r *RunInfo) Check() error {
	if r == nil {
		return nil
	}
	var problems []string
	for _, f := range []struct{ name, value string }{{"run_id", r.RunID}, {"agent_id", r.AgentID}, {"model", r.Model}} {
		switch {
		case len(f.value) > MaxRunText:
			problems = append(problems, fmt.Sprintf("%s is over %d bytes", f.name, MaxRunText))
		case !utf8.ValidString(f.value) || strings.IndexFunc(f.value, unicode.IsControl) >= 0:
			problems = append(problems, f.name+" holds a control character or is not UTF-8")
		}
	}
	if r.Turn < 0 || r.InputTokens < 0 || r.OutputTokens < 0 {
		problems = append(problems, "turn and token counts cannot be negative")
	}
	if len(problems) > 0 {
		return fmt.Errorf("run info: %s", strings.Join(problems, "; "))
	}
	return nil
}
