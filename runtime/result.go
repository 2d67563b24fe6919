package runtime

import (
	"encoding/json"
	"time"
)

// Call is one tool call from a model.
type Call struct {
	ID   string // the provider's call id, echoed in results
	Name string // the tool name
	Args []byte // the raw JSON arguments; empty or null means no arguments

	// Session identifies the conversation the call belongs to. Loop guards, AskRetry budgets,
	// repeated-call detection and session state are kept per session; calls without one share
	// the session "".
	Session string
	// UserData is whatever the host wants its handlers to see (a user, a sandbox root, a
	// database handle); handlers read it with CallInfoFrom. It never reaches the model.
	UserData any
	// Run is what the host knows of the model run the call comes from (its id, agent, model,
	// turn, tokens); nil when it knows nothing. Handlers read it in CallInfo.Run, observers in
	// Event.Run; the registry does not change it, so the calls of a turn may share one.
	Run *RunInfo
	// IdempotencyKey, when set, makes the call run at most once in its session for the
	// registry's idempotency window (WithIdempotency): a retry with the same key returns the
	// first call's result, waits for it, or is told why it cannot have it. It is the client's
	// (over MCP, the request's _meta "io.toolgen/idempotency-key" or its Idempotency-Key
	// header), at most MaxIdempotencyKeyBytes; read-only tools ignore it.
	IdempotencyKey string
}

// Result is the outcome of a call.
type Result struct {
	// Text is exactly what the model reads. For a structured result it is the JSON text.
	Text string
	// Structured is the JSON of a structured result, or nil. Read it, do not write into it:
	// a generated tool's Text is a string over the same bytes (one copy of the JSON a call,
	// not two); to change a result, set new values of both.
	Structured json.RawMessage
	// IsError marks an error result: invalid arguments, an unknown tool, a handler error or a
	// recovered panic.
	IsError bool
	// Replayed marks the result of an earlier call with the same idempotency key, returned
	// again without running the tool (Call.IdempotencyKey).
	Replayed bool
	// Err is the Go error behind an error result, for the operator; the model reads Text.
	Err error
	// Duration is the time the call took, decoding included.
	Duration time.Duration
	// Attempts is how many times the handler ran (0 when it never ran).
	Attempts int
	// Metadata is free data for the host; it never reaches the model.
	Metadata map[string]any

	// Kind classifies an error result (see ErrorKind); it is empty on success.
	Kind ErrorKind
	// Effects are what the handler asks the host to do (update a todo list, show a chart),
	// as typed values the host switches on (see Effect); they never reach the model. A
	// result with Effects and no Text is effect-only: see EffectOnly.
	Effects []Effect
	// PendingApproval is the id of the approval request the call waits for, when the tool
	// needs approval and the registry queues requests (WithApprovalQueue); "" otherwise.
	PendingApproval string
	// ClientCall is set when the tool is a client tool (//tool:client): the arguments are
	// valid and the host must execute the call, then send its outcome to the model under the
	// same call id.
	ClientCall *ClientCall
	// Offloaded is set when the result was larger than the tool's size cap: Text then holds a
	// preview and a note, and the full text went to the registry's ResultStore.
	Offloaded *Offloaded
	// Parts are what the result holds besides text: images, audio, links to resources,
	// embedded resources. Adapters send each in the form its provider accepts (see Part).
	Parts []Part
}

// EffectOnly reports whether the result carries effects for the host and nothing for the
// model: provider adapters send no tool output for it.
func (r Result) EffectOnly() bool {
	return len(r.Effects) > 0 && r.Text == "" && r.Structured == nil && len(r.Parts) == 0 && !r.IsError
}

// ClientCall is a validated call of a client tool, for the host to execute.
type ClientCall struct {
	CallID string // the call id to answer under
	Tool   string
	// Args are the decoded arguments (a pointer to the tool's args struct), or, for a client
	// tool registered without Bind, the raw JSON as a json.RawMessage.
	Args any
}

// Offloaded describes a result cut to its size cap.
type Offloaded struct {
	Size int // the size of the full text, in bytes
	// Shown is how many bytes of it the model reads.
	Shown int
	// ID names the full text in the registry's ResultStore (ResultStore.Read with the call's
	// session); "" when it was not stored (an error result, or the store failed).
	ID string
	// Note is what the model was told about reading the rest; "" when nothing was stored.
	Note string
	// Err is why the store failed, if it did.
	Err error
}

// TextResult returns a result the model reads as text.
func TextResult(text string) Result { return Result{Text: text} }

// ErrorResult returns an error result whose text is the error's message.
func ErrorResult(err error) Result {
	return Result{Text: err.Error(), IsError: true, Err: err}
}

// StructuredResult returns a result carrying structured JSON; the model reads the same JSON
// as text.
func StructuredResult(data []byte) Result {
	return Result{Text: string(data), Structured: json.RawMessage(data)}
}

// EffectResult returns an effect-only result: nothing for the model, effects for the host.
func EffectResult(effects ...Effect) Result { return Result{Effects: effects} }
