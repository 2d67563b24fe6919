package runtime

import (
	"encoding/json"
	"fmt"
	"time"
)

// Call is one tool call from a model.
type Call struct {
	ID   string // the provider's call id, echoed in results
	Name string // the tool name
	Args []byte // the raw JSON arguments; empty or null means no arguments
}

// Result is the outcome of a call.
type Result struct {
	// Text is exactly what the model reads. For a structured result it is the JSON text.
	Text string
	// Structured is the JSON of a structured result, or nil.
	Structured json.RawMessage
	// IsError marks an error result: invalid arguments, an unknown tool, a handler error or a
	// recovered panic.
	IsError bool
	// Err is the Go error behind an error result, for the operator; the model reads Text.
	Err error
	// Duration is the time the call took, decoding included.
	Duration time.Duration
	// Attempts is how many times the handler ran (0 when it never ran).
	Attempts int
	// Metadata is free data for the host; it never reaches the model.
	Metadata map[string]any
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

// ClientCallResult is the result of asking the registry to run a client tool (//tool:client):
// such a tool is declared to the model here but executed by the caller, so the registry refuses.
func ClientCallResult(name string) Result {
	return Result{
		Text:    fmt.Sprintf("%s cannot be run here: it is executed by the client.", name),
		IsError: true,
		Err:     fmt.Errorf("tool %q is a client tool: the caller executes it, not the registry", name),
	}
}
