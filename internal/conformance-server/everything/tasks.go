package everything

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// ---- Tasks (the io.modelcontextprotocol/tasks extension's scenarios, which the suite runs
// without scoring them: tasks-lifecycle, tasks-capability-negotiation, tasks-wire-fields,
// tasks-request-state-removal, tasks-mrtr-input, tasks-request-headers,
// tasks-dispatch-and-envelope, tasks-required-task-error)

// GreetArgs name whom to greet.
type GreetArgs struct {
	Name string `json:"name"`
}

// Greet greets someone, synchronously.
//
//tool:name greet
func Greet(ctx context.Context, args GreetArgs) (string, error) {
	return "Hello, " + args.Name + "!", nil
}

// SlowComputeArgs say how long to compute.
type SlowComputeArgs struct {
	Seconds float64 `json:"seconds" tool:"minimum=0,maximum=120"`
	Label   string  `json:"label,omitempty"`
}

// SlowCompute sleeps the seconds asked, then answers; a cancelled task stops it at once.
//
//tool:name slow_compute
//tool:task
//tool:timeout 3m
func SlowCompute(ctx context.Context, args SlowComputeArgs) (string, error) {
	select {
	case <-time.After(time.Duration(args.Seconds * float64(time.Second))):
		return fmt.Sprintf("Computed %s after %gs.", args.Label, args.Seconds), nil
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// FailingJob fails as a tool after a second: a completed task whose result is an error. It
// runs only as a task.
//
//tool:name failing_job
//tool:task required
func FailingJob(ctx context.Context) (string, error) {
	select {
	case <-time.After(time.Second):
		return "", errors.New("the job failed")
	case <-ctx.Done():
		return "", ctx.Err()
	}
}

// ProtocolErrorJob fails with a protocol error: it asks for the client's roots, which the
// suite's clients do not declare, so the task fails with a MissingRequiredClientCapability
// error.
//
//tool:name protocol_error_job
//tool:task
func ProtocolErrorJob(ctx context.Context) (string, error) {
	_, err := toolmcp.ListRoots(ctx)
	return "", err
}

// ConfirmDeleteArgs name the file.
type ConfirmDeleteArgs struct {
	Filename string `json:"filename"`
}

// ConfirmDelete asks the user to confirm, during the task, then deletes (pretends to).
//
//tool:name confirm_delete
//tool:task
func ConfirmDelete(ctx context.Context, args ConfirmDeleteArgs) (string, error) {
	action, content, err := toolmcp.ElicitNamed(ctx, "confirm", "Delete "+args.Filename+"?", map[string]any{
		"type": "object", "properties": map[string]any{"confirm": map[string]any{"type": "boolean"}},
	})
	if err != nil {
		return "", err
	}
	if action != "accept" || content["confirm"] != true {
		return "Kept " + args.Filename + ".", nil
	}
	return "Deleted " + args.Filename + ".", nil
}

// MultiInput asks two questions at once, during the task, and answers with both answers.
//
//tool:name multi_input
//tool:task
func MultiInput(ctx context.Context) (string, error) {
	schema := map[string]any{"type": "object", "properties": map[string]any{
		"name": map[string]any{"type": "string"}, "confirm": map[string]any{"type": "boolean"},
	}}
	answers, err := toolmcp.Ask(ctx, toolmcp.ElicitInput("first", "First input?", schema), toolmcp.ElicitInput("second", "Second input?", schema))
	if err != nil {
		return "", err
	}
	data, err := json.Marshal(answers)
	return "Answers: " + string(data), err
}
