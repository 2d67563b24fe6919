package runtime

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/internal/suggest"
)

// maxListedTools caps the names an unknown-tool result lists, so a large registry does not
// flood the model's context with one mistyped call.
const maxListedTools = 50

// Invoke runs one call from a model and returns what the model should read. It never panics
// and never returns an error: every failure is an error Result (IsError set) whose Text is
// written for the model and whose Err is the Go error for the operator.
//
// The call goes through three steps:
//
//  1. resolve: find the tool by name; an unknown name lists the available tools, with a
//     "did you mean" hint.
//  2. bind: decode and validate the arguments (empty, whitespace-only and null arguments
//     count as {}); invalid arguments list every problem with its JSON Pointer path.
//  3. run: call the handler once; a panic is recovered into an error result that hides the
//     panic value from the model and keeps it, with the stack, in a *PanicError.
//
// Result.Duration is the wall time of the whole Invoke; Result.Attempts is 1 when the handler
// ran and 0 when the call failed before it.
func (r *Registry) Invoke(ctx context.Context, call Call) Result {
	start := time.Now()
	res := r.invoke(ctx, call)
	res.Duration = time.Since(start)
	return res
}

// invoke is the pipeline; every step returns either what the next one needs or the final
// error result.
func (r *Registry) invoke(ctx context.Context, call Call) Result {
	tool, failed, ok := r.resolve(call.Name)
	if !ok {
		return failed
	}
	bound, failed, ok := bind(ctx, tool, call.Args)
	if !ok {
		return failed
	}
	// The run step is the seam for per-call policies. Timeouts, retries, approval and
	// middleware wrap runOnce here, each a func(context.Context, Tool, BoundCall) Result
	// around the next: they see only resolved tools with valid arguments, and a retry
	// re-runs the bound call without decoding again.
	return runOnce(ctx, tool, bound)
}

// resolve finds the tool a call names.
func (r *Registry) resolve(name string) (Tool, Result, bool) {
	tool, names, ok := r.lookup(name)
	if !ok {
		return Tool{}, unknownToolResult(name, names), false
	}
	if tool.Bind == nil {
		// Only a Client tool can be registered without Bind: its caller runs it.
		return Tool{}, ClientCallResult(name), false
	}
	return tool, Result{}, true
}

// unknownToolResult tells the model which tools exist, nearest match first.
func unknownToolResult(name string, names []string) Result {
	var b strings.Builder
	switch near := suggest.Closest(name, names); {
	case name == "":
		b.WriteString("the call names no tool.")
	case near != "":
		fmt.Fprintf(&b, "unknown tool %q; did you mean %q?", name, near)
	default:
		fmt.Fprintf(&b, "unknown tool %q.", name)
	}
	if len(names) == 0 {
		b.WriteString(" No tools are available.")
	} else {
		listed := names[:min(len(names), maxListedTools)]
		b.WriteString(" Available tools: ")
		b.WriteString(strings.Join(listed, ", "))
		if len(names) > len(listed) {
			b.WriteString(", …")
		}
	}
	return Result{
		Text:    b.String(),
		IsError: true,
		Err:     fmt.Errorf("%w %q", ErrUnknownTool, name),
	}
}

// bind decodes the arguments. It guards against a panicking Bind too: generated decoders
// should not panic, but a bug there must not take the host down.
func bind(ctx context.Context, tool Tool, args []byte) (bound BoundCall, failed Result, ok bool) {
	defer func() {
		if v := recover(); v != nil {
			bound, failed, ok = nil, panicResult(tool.Name, v, 0), false
		}
	}()
	bound, err := tool.Bind(ctx, normalizeArgs(args))
	switch {
	case err != nil:
		return nil, bindErrorResult(tool.Name, err), false
	case bound == nil:
		err := fmt.Errorf("tool %q: Bind returned neither a call nor an error", tool.Name)
		return nil, internalErrorResult(tool.Name, err, 0), false
	}
	return bound, Result{}, true
}

// normalizeArgs turns the ways models say "no arguments" (nothing, whitespace, null) into
// {}, so a tool without required arguments accepts them.
func normalizeArgs(args []byte) []byte {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return []byte("{}")
	}
	return args
}

// bindErrorResult tells the model what is wrong with its arguments and that it should call
// again. A context error is not the model's fault, so it is reported as such instead.
func bindErrorResult(name string, err error) Result {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return Result{
			Text:    fmt.Sprintf("%s did not run: the call was cancelled or timed out.", name),
			IsError: true,
			Err:     err,
		}
	}
	retry := fmt.Sprintf("\nCorrect the arguments and call %s again.", name)
	var argsErr *ArgsError
	if errors.As(err, &argsErr) {
		// A copy, so that an *ArgsError Bind shares between calls is never written to.
		named := *argsErr
		named.Tool = name
		return Result{Text: named.Error() + retry, IsError: true, Err: &named}
	}
	return Result{
		Text:    fmt.Sprintf("invalid arguments for %s: %v%s", name, err, retry),
		IsError: true,
		Err:     err,
	}
}

// runOnce runs the handler once; the handler has run whatever it returns, so Attempts is 1.
func runOnce(ctx context.Context, tool Tool, call BoundCall) (res Result) {
	defer func() {
		if v := recover(); v != nil {
			res = panicResult(tool.Name, v, 1)
		}
	}()
	res = call.Run(ctx)
	res.Attempts = 1
	return res
}

// PanicError is the Err of a result whose handler (or Bind) panicked. The model never sees
// it: its Text only says the tool failed with an internal error.
type PanicError struct {
	Tool  string // the tool whose code panicked
	Value any    // the value passed to panic
	Stack []byte // the panicking goroutine's stack, as runtime/debug.Stack formats it
}

func (e *PanicError) Error() string {
	return fmt.Sprintf("tool %q panicked: %v", e.Tool, e.Value)
}

// Unwrap returns the panic value when it is an error, so errors.Is and errors.As see through
// the panic (for instance to a runtime.Error of the standard library).
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// panicResult must be called from the deferred function that recovered v, so that the stack
// it records still shows where the panic happened.
func panicResult(name string, v any, attempts int) Result {
	return internalErrorResult(name, &PanicError{Tool: name, Value: v, Stack: debug.Stack()}, attempts)
}

// internalErrorResult reports a failure inside the tool's code without showing its details,
// which may hold anything from file paths to secrets.
func internalErrorResult(name string, err error, attempts int) Result {
	return Result{
		Text:     fmt.Sprintf("%s failed with an internal error.", name),
		IsError:  true,
		Err:      err,
		Attempts: attempts,
	}
}
