// Package demo holds the tools examples/mcp-server serves besides get_weather, each showing
// what runtime/mcp does over MCP: progress and cancellation (count), a structured result larger
// than its cap (table), what a handler knows of its call (whoami), approval by elicitation
// (send_note) and a question to the user (ask).
package demo

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// CountArgs are the arguments of count.
type CountArgs struct {
	// To is the number to count to.
	To int `json:"to" tool:"minimum=1,maximum=1000"`
	// StepMillis is the pause after each number, in milliseconds.
	StepMillis int `json:"step_millis,omitempty" tool:"minimum=0,maximum=60000,default=0"`
}

// Counted is what count returns.
type Counted struct {
	// Reached is the last number counted.
	Reached int `json:"reached"`
}

// Count counts slowly to a number, reporting its progress; it stops when the call is cancelled
// (whoami then says where).
//
//tool:name count
//tool:hints readonly,idempotent
//tool:timeout 10m
func Count(ctx context.Context, args CountArgs) (Counted, error) {
	for i := 1; i <= args.To; i++ {
		runtime.Progress(ctx, float64(i), float64(args.To), fmt.Sprintf("counted to %d", i))
		select {
		case <-ctx.Done():
			info, _ := runtime.CallInfoFrom(ctx)
			_ = info.State.Set(context.WithoutCancel(ctx), "cancelled_at", i)
			return Counted{Reached: i}, ctx.Err()
		case <-time.After(time.Duration(args.StepMillis) * time.Millisecond):
		}
	}
	return Counted{Reached: args.To}, nil
}

// TableArgs are the arguments of table.
type TableArgs struct {
	// Rows is how many rows to return.
	Rows int `json:"rows" tool:"minimum=0,maximum=100000"`
}

// Table is a table of squares.
type Table struct {
	// Rows of the table.
	Rows []Row `json:"rows"`
}

// Row is one row of a table.
type Row struct {
	// N is the row's number.
	N int `json:"n"`
	// Square is N squared.
	Square int `json:"square"`
}

// GetTable returns a table of squares, larger than the model may read when there are many rows.
//
//tool:name table
//tool:hints readonly,idempotent
//tool:maxresult 1KiB
func GetTable(_ context.Context, args TableArgs) (Table, error) {
	t := Table{Rows: make([]Row, args.Rows)}
	for i := range t.Rows {
		t.Rows[i] = Row{N: i, Square: i * i}
	}
	return t, nil
}

// Caller is what a handler knows of its call.
type Caller struct {
	// CallID is the JSON-RPC id of the tools/call request.
	CallID string `json:"call_id"`
	// Session is the registry session the call runs in.
	Session string `json:"session"`
	// User is the authenticated user, when the server checks bearer tokens.
	User string `json:"user"`
	// Calls counts whoami calls in the session.
	Calls int `json:"calls"`
	// CancelledAt is where the last cancelled count of the session stopped (0: none was).
	CancelledAt int `json:"cancelled_at"`
}

// Whoami says what the server knows of the call: its id, session and user.
//
//tool:name whoami
//tool:hints readonly
func Whoami(ctx context.Context) (Caller, error) {
	info, _ := runtime.CallInfoFrom(ctx)
	c := Caller{CallID: info.CallID, Session: info.Session}
	if token := toolmcp.TokenInfo(ctx); token != nil {
		c.User = token.UserID
	}
	if v, ok, _ := info.State.Get(ctx, "cancelled_at"); ok {
		c.CancelledAt, _ = v.(int)
	}
	err := info.State.Update(ctx, "whoami_calls", func(old any, _ bool) (any, error) {
		n, _ := old.(int)
		c.Calls = n + 1
		return c.Calls, nil
	})
	return c, err
}

// NoteArgs are the arguments of send_note.
type NoteArgs struct {
	// To is who gets the note.
	To string `json:"to" tool:"minLength=1"`
	// Text of the note.
	Text string `json:"text" tool:"minLength=1"`
}

// SendNote sends a note to someone in the user's name.
//
//tool:name send_note
//tool:confirm sends a note in the user's name
//tool:risk medium
//tool:hints destructive,openworld
func SendNote(_ context.Context, args NoteArgs) (string, error) {
	return fmt.Sprintf("Sent to %s: %s", args.To, args.Text), nil
}

// AskArgs are the arguments of ask.
type AskArgs struct {
	// Question to ask the user.
	Question string `json:"question" tool:"minLength=1"`
}

// Ask asks the user a question and returns the answer.
//
//tool:name ask
//tool:hints readonly
func Ask(ctx context.Context, args AskArgs) (string, error) {
	schema := map[string]any{"type": "object", "properties": map[string]any{"answer": map[string]any{"type": "string"}}, "required": []string{"answer"}}
	action, content, err := toolmcp.Elicit(ctx, args.Question, schema)
	if err != nil {
		return "", err
	}
	if action != "accept" {
		return "The user did not answer (" + action + ").", nil
	}
	return fmt.Sprint(content["answer"]), nil
}
