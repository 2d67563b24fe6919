package tooltest

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// Result is what a tool call returned, through the registry (Call) or over MCP
// (MCPClient.Call), with the methods a test asserts with. Each Require method stops the test
// (t.FailNow) when the result is not what it says, and returns the result, so they chain:
//
//	tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireOK(t).RequireJSON(t, `{"city":"Tokyo","temperature":17}`)
type Result struct {
	Tool string // the tool called
	// Text is what the model reads: the result's text, or over MCP its text content (the
	// text blocks joined with newlines).
	Text string
	// Structured is the structured JSON of the result (over MCP its structuredContent), or
	// nil.
	Structured json.RawMessage
	IsError    bool
	// Problems are the argument problems of an invalid-arguments error, in document order:
	// the registry's *runtime.ArgsError, or, over MCP, the problems read back from the text
	// the model reads (one "- /path: message" line each). Nil for any other result.
	Problems []runtime.Problem
	// Runtime is the registry's result (Call only; its zero value over MCP).
	Runtime runtime.Result
	// MCP is the CallToolResult the client received (MCPClient.Call only; nil otherwise).
	MCP *mcp.CallToolResult
}

// CallOption sets a field of the runtime.Call that Call makes.
type CallOption func(*runtime.Call)

// InSession makes the call in the registry session session, instead of the one named after
// the test (t.Name()), which the calls of one test share.
func InSession(session string) CallOption {
	return func(c *runtime.Call) { c.Session = session }
}

// WithCallID sets the call id the handler sees (runtime.CallInfo.CallID), instead of a
// fresh "tooltest_call_N".
func WithCallID(id string) CallOption {
	return func(c *runtime.Call) { c.ID = id }
}

// WithUserData sets the call's runtime.Call.UserData, which handlers read with
// runtime.CallInfoFrom.
func WithUserData(data any) CallOption {
	return func(c *runtime.Call) { c.UserData = data }
}

var callCount atomic.Int64

// Call calls the tool name of reg with args through reg.Invoke, as a model's call would go,
// under the test's context, and returns its result. args is the JSON object of arguments as
// a string, []byte or json.RawMessage, used as it is (so a test can send what a model would,
// unknown properties and wrong types included), nil for none, or any other value, which is
// marshaled with encoding/json. Calls of one test share the registry session t.Name(), as
// the calls of one conversation do (InSession for another).
//
// Call fails the test only when args cannot be marshaled: an error result is a result, for
// the Require methods to judge.
func Call(t testing.TB, reg *runtime.Registry, name string, args any, opts ...CallOption) *Result {
	t.Helper()
	data := argsJSON(t, args)
	call := runtime.Call{ID: fmt.Sprintf("tooltest_call_%d", callCount.Add(1)), Name: name, Args: data, Session: t.Name()}
	for _, o := range opts {
		o(&call)
	}
	res := reg.Invoke(t.Context(), call)
	out := &Result{Tool: name, Text: res.Text, Structured: res.Structured, IsError: res.IsError, Runtime: res}
	var argsErr *runtime.ArgsError
	switch {
	case errors.As(res.Err, &argsErr):
		out.Problems = argsErr.Problems
	case res.IsError:
		out.Problems = ProblemsFromText(res.Text)
	}
	return out
}

// argsJSON returns the arguments of Call and MCPClient.Call as JSON.
func argsJSON(t testing.TB, args any) []byte {
	t.Helper()
	switch a := args.(type) {
	case nil:
		return nil
	case string:
		return []byte(a)
	case []byte:
		return a
	case json.RawMessage:
		return a
	}
	data, err := json.Marshal(args)
	require.NoError(t, err, "tooltest: the arguments do not marshal as JSON")
	return data
}

// ProblemsFromText returns the argument problems an invalid-arguments error text lists, as
// the registry words it for the model (see runtime.ArgsError):
//
//	invalid arguments for get_weather:
//	- /city: required
//	- /unit: must be one of "celsius", "fahrenheit", got "kelvin"
//	Correct the arguments and call get_weather again.
//
// or, for one problem, "invalid arguments for get_weather: /city: required". A problem whose
// text does not start with "/" is about the whole document (Path ""). It returns nil for a
// text that is not an invalid-arguments error. A message is cut at its first line break,
// so a problem message spanning lines comes back as its first line.
func ProblemsFromText(text string) []runtime.Problem {
	rest := strings.TrimPrefix(text, "Error: ") // as some adapters send it to the model
	rest, ok := strings.CutPrefix(rest, "invalid arguments")
	if !ok {
		return nil
	}
	if strings.HasPrefix(rest, " for ") {
		_, rest, ok = strings.Cut(rest, ":") // after the tool name
	} else {
		rest, ok = strings.CutPrefix(rest, ":")
	}
	if !ok {
		return nil
	}
	var lines []string
	if one, ok := strings.CutPrefix(rest, " "); ok {
		first, _, _ := strings.Cut(one, "\n")
		lines = []string{first}
	} else {
		for _, line := range strings.Split(strings.TrimPrefix(rest, "\n"), "\n") {
			item, ok := strings.CutPrefix(line, "- ")
			if !ok {
				break // "Correct the arguments…"
			}
			lines = append(lines, item)
		}
	}
	problems := make([]runtime.Problem, 0, len(lines))
	for _, line := range lines {
		if path, message, ok := strings.Cut(line, ": "); ok && strings.HasPrefix(path, "/") {
			problems = append(problems, runtime.Problem{Path: path, Message: message})
		} else {
			problems = append(problems, runtime.Problem{Message: line})
		}
	}
	return problems
}

// RequireOK stops the test unless the call succeeded.
func (r *Result) RequireOK(t testing.TB) *Result {
	t.Helper()
	require.False(t, r.IsError, "tooltest: %s failed: %s", r.Tool, r.Text)
	return r
}

// RequireText stops the test unless the call succeeded and the model reads exactly want.
func (r *Result) RequireText(t testing.TB, want string) *Result {
	t.Helper()
	r.RequireOK(t)
	require.Equal(t, want, r.Text, "tooltest: the text of %s", r.Tool)
	return r
}

// RequireJSON stops the test unless the call succeeded with structured JSON equal to want
// as JSON values (key order and spacing do not matter).
func (r *Result) RequireJSON(t testing.TB, want string) *Result {
	t.Helper()
	r.RequireOK(t)
	require.NotNil(t, r.Structured, "tooltest: %s returned no structured result: %s", r.Tool, r.Text)
	require.JSONEq(t, want, string(r.Structured), "tooltest: the structured result of %s", r.Tool)
	return r
}

// DecodeJSON decodes the structured result into v (a pointer), stopping the test if the call
// failed, returned no structured result or one that does not decode into v.
func (r *Result) DecodeJSON(t testing.TB, v any) {
	t.Helper()
	r.RequireOK(t)
	require.NotNil(t, r.Structured, "tooltest: %s returned no structured result: %s", r.Tool, r.Text)
	require.NoError(t, json.Unmarshal(r.Structured, v), "tooltest: decoding the structured result of %s", r.Tool)
}

// RequireError stops the test unless the call failed with a text that contains each of
// substrings (none: any error result).
func (r *Result) RequireError(t testing.TB, substrings ...string) *Result {
	t.Helper()
	require.True(t, r.IsError, "tooltest: %s succeeded, want an error: %s", r.Tool, r.Text)
	for _, s := range substrings {
		require.Contains(t, r.Text, s, "tooltest: the error of %s", r.Tool)
	}
	return r
}

// RequireProblems stops the test unless the call failed on invalid arguments whose problems
// are at exactly paths (JSON Pointers, "" for the whole document), in document order: a test
// that sends three mistakes checks that the model is told of all three, and of nothing else.
func (r *Result) RequireProblems(t testing.TB, paths ...string) *Result {
	t.Helper()
	require.True(t, r.IsError, "tooltest: %s succeeded, want invalid arguments at %q: %s", r.Tool, paths, r.Text)
	require.NotEmpty(t, r.Problems, "tooltest: %s failed, but not on its arguments: %s", r.Tool, r.Text)
	got := make([]string, len(r.Problems))
	for i, p := range r.Problems {
		got[i] = p.Path
	}
	require.Equal(t, paths, got, "tooltest: the problems of %s:\n%s", r.Tool, r.Text)
	return r
}

// Problem returns the message of the problem at path, or "" and false when there is none.
func (r *Result) Problem(path string) (string, bool) {
	for _, p := range r.Problems {
		if p.Path == path {
			return p.Message, true
		}
	}
	return "", false
}
