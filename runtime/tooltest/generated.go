package tooltest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/pmezard/go-difflib/difflib"

	"github.com/toolgen-go/toolgen/runtime"
)

// This file is what the tests toolgen -tests generates (tools_gen_test.go) call: each
// generated test is one call of RunExamples or FuzzTool per tool, with the tool's examples
// and seeds as literals, so that the generated file stays a list of data.

// Example is one //tool:example call of a tool with its => EXPECTED result, for RunExamples.
type Example struct {
	At       string // where the example is written, file:line (relative to the package)
	Scenario string // the example's scenario, or ""
	Args     string // the call's arguments, JSON
	// Expected is the result the call must return: JSON, compared as JSON values with the
	// result's text (key order and spacing aside), or else text, compared exactly.
	Expected string
}

// Seed is one input of a generated fuzz target (FuzzTool): arguments derived from the tool's
// schema or examples when the code was generated, and what the call must come to.
type Seed struct {
	Note string // what the seed is: "example weather.go:62", "/city missing", …
	Args string // JSON, or not: whatever a model might send
	// Problems are the JSON Pointers of the problems the call must be refused with, in
	// document order; nil when the call is valid and must reach the handler.
	Problems []string
}

// Fuzz says which tool FuzzTool calls and how.
type Fuzz struct {
	// Tools returns the package's tools afresh (the generated Tools, or a function that binds
	// a new receiver), so that no call sees the state an earlier one left.
	Tools func() []runtime.Tool
	Tool  string // the name of the tool to call
	// UserChecks is set when the tool's own code may refuse arguments its schema allows (its
	// args type has a Validate method or holds a TextUnmarshaler): a valid seed may then be
	// refused, and a refusal may name more problems than a seed's.
	UserChecks bool
	Seeds      []Seed
}

// RunExamples calls the tool name of tools() with each example's arguments through a
// registry, as a model's call goes, and fails the test, naming the example's file:line, when
// the result differs from the example's expected one; the message shows a diff. Every call
// is approved (a //tool:confirm tool runs), and the tool's //tool:filters pass the call on
// unchanged: the example is the tool's, not the host's.
func RunExamples(t testing.TB, tools func() []runtime.Tool, name string, examples ...Example) {
	t.Helper()
	for _, ex := range examples {
		reg := harnessRegistry(t, findTool(t, tools(), name))
		res := reg.Invoke(t.Context(), runtime.Call{ID: "example", Name: name, Args: []byte(ex.Args), Session: t.Name()})
		if diff := resultDiff(ex.Expected, res.Text); diff != "" {
			what := "the result"
			if res.IsError {
				what = "the error result"
			}
			scenario := ""
			if ex.Scenario != "" {
				scenario = fmt.Sprintf(" %q", ex.Scenario)
			}
			t.Errorf("%s: example%s of %s: %s differs from the example's => EXPECTED (- expected, + got):\n%s", ex.At, scenario, name, what, diff)
		}
	}
}

// resultDiff compares what an example expects with the text a call returned: as JSON values
// when both are JSON, else as text. It returns a unified diff, or "" when they are equal.
func resultDiff(expected, got string) string {
	want, have := strings.TrimSpace(expected), strings.TrimSpace(got)
	if json.Valid([]byte(want)) && json.Valid([]byte(have)) {
		var a, b any
		_ = json.Unmarshal([]byte(want), &a)
		_ = json.Unmarshal([]byte(have), &b)
		wantText, _ := json.MarshalIndent(a, "", "  ")
		haveText, _ := json.MarshalIndent(b, "", "  ")
		want, have = string(wantText), string(haveText)
	}
	if want == have {
		return ""
	}
	diff, _ := difflib.GetUnifiedDiffString(difflib.UnifiedDiff{
		A: difflib.SplitLines(want + "\n"), B: difflib.SplitLines(have + "\n"),
		FromFile: "expected", ToFile: "got", Context: 3,
	})
	return diff
}

// FuzzTool is the body of a generated fuzz target: it adds the seeds to the corpus and calls
// the tool with each input through a registry of its own, as a model's call goes (every call
// approved, filters passing calls on, retries off), asserting that
//
//   - no input makes the tool's code panic (the decoder's or the handler's);
//   - a refused call lists its problems, each with a message and a JSON Pointer whose parent
//     is in the document sent (a missing property's parent is);
//   - an accepted call reaches the handler with the values sent: each member of the
//     document, at every depth, is the value the handler's argument holds (numbers compared
//     exactly, strings, times, durations and bytes as decoded), which is checked from the
//     arguments the tool's decoder bound, so the handler itself is unchanged;
//   - a seed comes to what it says: a valid seed reaches the handler, an invalid one is
//     refused with problems at exactly its pointers, in order.
//
// Run it as any fuzz target: go test runs the seeds, go test -fuzz=FuzzGetWeather mutates them.
func FuzzTool(f *testing.F, fz Fuzz) {
	f.Helper()
	for _, s := range fz.Seeds {
		f.Add([]byte(s.Args))
	}
	f.Fuzz(func(t *testing.T, args []byte) { fz.Check(t, args) })
}

// Check makes one call of a fuzz target: it calls the tool with args and asserts what
// FuzzTool says, and, when args are a seed's, what the seed says.
func (fz Fuzz) Check(t testing.TB, args []byte) {
	t.Helper()
	var seed Seed
	isSeed := false
	for _, s := range fz.Seeds {
		if s.Args == string(args) {
			seed, isSeed = s, true
			break
		}
	}
	tool := findTool(t, fz.Tools(), fz.Tool)
	tool.Retry = runtime.RetryPolicy{}
	obs := &observation{sent: normalizedArgs(args)}
	reg := harnessRegistry(t, observe(tool, obs))
	res := reg.Invoke(t.Context(), runtime.Call{ID: "fuzz", Name: fz.Tool, Args: args, Session: "fuzz"})
	shown := fmt.Sprintf("%s called with %.500q", fz.Tool, args)
	if isSeed {
		shown = fmt.Sprintf("%s called with seed %q: %.500s", fz.Tool, seed.Note, args)
	}
	var panicked *runtime.PanicError
	if errors.As(res.Err, &panicked) {
		t.Fatalf("%s: it panicked: %v\n%s", shown, panicked.Value, panicked.Stack)
	}
	mismatches, ran := obs.get()
	// A call refused before its handler ran: invalid arguments (an *runtime.ArgsError), or
	// a document beyond the registry's limits on size and depth.
	refused := !ran && res.IsError && (res.Kind == runtime.KindInvalidInput || res.Kind == runtime.KindLimit)
	var argsErr *runtime.ArgsError
	if refused && errors.As(res.Err, &argsErr) {
		for _, problem := range malformedProblems(normalizedArgs(args), argsErr.Problems) {
			t.Errorf("%s: %s", shown, problem)
		}
	}
	for _, mismatch := range mismatches {
		t.Errorf("%s: the handler did not get the values sent: %s", shown, mismatch)
	}
	if !refused && !ran {
		t.Errorf("%s: neither refused nor run: %s", shown, res.Text)
	}
	if !isSeed {
		return
	}
	switch {
	case seed.Problems == nil && refused && !fz.UserChecks:
		t.Errorf("%s: valid by the tool's schema, but refused:\n%s", shown, res.Text)
	case seed.Problems != nil && !refused:
		t.Errorf("%s: invalid by the tool's schema at %q, but not refused: %s", shown, seed.Problems, res.Text)
	case seed.Problems != nil && argsErr == nil:
		t.Errorf("%s: refused, but not for invalid arguments: %s", shown, res.Text)
	case seed.Problems != nil:
		got := make([]string, len(argsErr.Problems))
		for i, p := range argsErr.Problems {
			got[i] = p.Path
		}
		if !samePaths(seed.Problems, got, fz.UserChecks) {
			t.Errorf("%s: refused with problems at %q, want %q:\n%s", shown, got, seed.Problems, res.Text)
		}
	}
}

// samePaths reports whether the problems found are those wanted: exactly, or, when the
// tool's code checks more (subset), at least those.
func samePaths(want, got []string, subset bool) bool {
	if !subset {
		return slicesEqual(want, got)
	}
	for _, w := range want {
		found := false
		for _, g := range got {
			found = found || g == w
		}
		if !found {
			return false
		}
	}
	return true
}

func slicesEqual(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// findTool returns the tool named name, failing the test when tools has none.
func findTool(t testing.TB, tools []runtime.Tool, name string) runtime.Tool {
	t.Helper()
	for _, tool := range tools {
		if tool.Name == name {
			return tool
		}
	}
	t.Fatalf("tooltest: no tool named %q; regenerate the tests (go generate)", name)
	return runtime.Tool{}
}

// harnessRegistry is a registry holding tool alone, approving every call and with the
// tool's filters passing calls on.
func harnessRegistry(t testing.TB, tool runtime.Tool) *runtime.Registry {
	t.Helper()
	opts := []runtime.Option{runtime.WithApprover(runtime.ApproverFunc(approveAll))}
	for _, name := range tool.Filters {
		opts = append(opts, runtime.WithFilter(name, func(next runtime.Handler) runtime.Handler { return next }))
	}
	reg := runtime.NewRegistry(opts...)
	if err := reg.Add(tool); err != nil {
		t.Fatalf("tooltest: %v", err)
	}
	return reg
}

func approveAll(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
	return runtime.Decision{Approved: true, By: "tooltest"}, nil
}

// observation records whether the handler ran and how the arguments it was given differ
// from the document sent, compared as the handler got them (a handler may change them).
type observation struct {
	sent []byte // the document, as the registry binds it

	mu         sync.Mutex
	ran        bool
	mismatches []string
}

func (o *observation) get() ([]string, bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.mismatches, o.ran
}

// observe returns tool with a Bind that binds as the tool does and, when the bound call
// runs, compares the arguments the handler is about to get with the document sent.
func observe(tool runtime.Tool, obs *observation) runtime.Tool {
	inner := tool
	tool.Bind = func(ctx context.Context, args []byte) (runtime.BoundCall, error) {
		call, err := inner.BindArgs(ctx, args)
		if err != nil {
			return nil, err
		}
		return observedCall{call, obs}, nil
	}
	return tool
}

type observedCall struct {
	runtime.BoundCall
	obs *observation
}

func (c observedCall) Run(ctx context.Context) runtime.Result {
	mismatches := sentValues(c.obs.sent, c.BoundCall.Args())
	c.obs.mu.Lock()
	c.obs.ran, c.obs.mismatches = true, mismatches
	c.obs.mu.Unlock()
	return c.BoundCall.Run(ctx)
}

// normalizedArgs is what the registry binds for args: empty or null arguments are {}.
func normalizedArgs(args []byte) []byte {
	trimmed := bytes.TrimSpace(args)
	if len(trimmed) == 0 || string(trimmed) == "null" {
		return []byte("{}")
	}
	return args
}
