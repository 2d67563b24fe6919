package xmlcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
)

// Dispatcher finds tools and runs calls. *runtime.Registry is one; so is
// *disclosure.Disclosure, which adds get_tool_info.
type Dispatcher interface {
	Tool(name string) (runtime.Tool, bool)
	Invoke(ctx context.Context, call runtime.Call) runtime.Result
}

// Arguments turns the parameters of a call into t's JSON arguments, converting each value
// into the JSON type that t's input schema gives the parameter, never by the look of the
// text:
//
//   - string: the text as it is ("3" stays "3");
//   - integer, number: the text must be a JSON number;
//   - boolean: true or false, in any case;
//   - null (a nullable parameter): null, or an empty value when a string is not allowed;
//   - array, object: the text must be JSON;
//   - no type (any value): JSON when the text is JSON, else a string.
//
// When several types are allowed they are tried in the order null, boolean, number, array
// and object, string. A parameter the schema does not define is passed as a string, so the
// tool's decoder reports it as an unknown property with a "did you mean" hint.
//
// A value that fits none of its types is a problem at the parameter's JSON Pointer
// ("/days: must be an integer, got "three""); Arguments then returns the arguments that did
// convert and an *runtime.ArgsError listing every problem. Any other error means t's input
// schema cannot be read.
func Arguments(t runtime.Tool, params []Param) (json.RawMessage, error) {
	declared, err := parametersOf(t.InputSchema)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	var problems []runtime.Problem
	b.WriteByte('{')
	for _, p := range params {
		var value json.RawMessage
		i := slices.IndexFunc(declared, func(d disclosure.Parameter) bool { return d.Name == p.Name })
		if i < 0 {
			value = quote(p.Value)
		} else {
			var problem string
			if value, problem = coerce(declared[i], p.Value); problem != "" {
				path := (*decode.Path)(nil).Key(p.Name)
				problems = append(problems, runtime.Problem{Path: path.String(), Message: problem})
				continue
			}
		}
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		b.Write(quote(p.Name))
		b.WriteByte(':')
		b.Write(value)
	}
	b.WriteByte('}')
	if len(problems) > 0 {
		return b.Bytes(), &runtime.ArgsError{Tool: t.Name, Problems: problems}
	}
	return b.Bytes(), nil
}

// parameters caches what disclosure.Parameters reads from each input schema: schemas are
// fixed when the code is generated, and reading one costs far more than the call it serves.
var parameters struct {
	mu       sync.RWMutex
	bySchema map[string][]disclosure.Parameter
}

func parametersOf(schema json.RawMessage) ([]disclosure.Parameter, error) {
	parameters.mu.RLock()
	declared, ok := parameters.bySchema[string(schema)]
	parameters.mu.RUnlock()
	if ok {
		return declared, nil
	}
	declared, err := disclosure.Parameters(schema)
	if err != nil {
		return nil, err
	}
	parameters.mu.Lock()
	if parameters.bySchema == nil {
		parameters.bySchema = make(map[string][]disclosure.Parameter)
	}
	parameters.bySchema[string(schema)] = declared
	parameters.mu.Unlock()
	return declared, nil
}

// coerce converts one value by its parameter's types; problem says why it cannot.
func coerce(p disclosure.Parameter, value string) (json.RawMessage, string) {
	text := strings.TrimSpace(value)
	if len(p.Types) == 0 {
		var c bytes.Buffer
		if text != "" && json.Compact(&c, []byte(text)) == nil {
			return c.Bytes(), ""
		}
		return quote(value), ""
	}
	has := func(t string) bool { return slices.Contains(p.Types, t) }
	if has("null") && (text == "null" || text == "" && !has("string")) {
		return json.RawMessage("null"), ""
	}
	if has("boolean") && (strings.EqualFold(text, "true") || strings.EqualFold(text, "false")) {
		return json.RawMessage(strings.ToLower(text)), ""
	}
	if (has("integer") || has("number")) && isNumber(text) {
		return json.RawMessage(text), ""
	}
	if has("array") && strings.HasPrefix(text, "[") || has("object") && strings.HasPrefix(text, "{") {
		// Compact validates as it goes; what the value holds is the decoder's to judge.
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(text)); err != nil {
			return nil, "must be " + wanted(p.Types) + ", got text that is not valid JSON (" + err.Error() + ")"
		}
		return c.Bytes(), ""
	}
	if has("string") {
		return quote(value), ""
	}
	got := "an empty value"
	if text != "" {
		got = shown(text)
	}
	return nil, "must be " + wanted(p.Types) + ", got " + got
}

// isNumber reports whether s is a JSON number.
func isNumber(s string) bool {
	return s != "" && (s[0] == '-' || '0' <= s[0] && s[0] <= '9') && json.Valid([]byte(s))
}

// wanted renders JSON types for a message: "an integer or null".
func wanted(types []string) string {
	names := map[string]string{
		"string":  "a string",
		"integer": "an integer",
		"number":  "a number",
		"boolean": "true or false",
		"null":    "null",
		"array":   "an array written as JSON",
		"object":  "an object written as JSON",
	}
	parts := make([]string, len(types))
	for i, t := range types {
		if parts[i] = names[t]; parts[i] == "" {
			parts[i] = t
		}
	}
	return strings.Join(parts, " or ")
}

// quote writes s as a JSON string, leaving <, > and & as they are: the arguments go to a
// decoder, not into HTML.
func quote(s string) json.RawMessage {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// Invoke runs one parsed call through d: it finds the tool, converts the parameters with
// Arguments and dispatches the JSON arguments, so the tool's generated decoder validates them
// as it validates a native call. Like Registry.Invoke it never panics and returns no error.
//
// When a value does not convert, the tool does not run. The result lists the conversion
// problems together with the other problems of the call (a missing required parameter, a
// value out of range), which the tool's Bind reports on the arguments that did convert; Bind
// only decodes, so asking it runs nothing. An unknown tool is left to d, which names the
// available tools.
func Invoke(ctx context.Context, d Dispatcher, call Call) runtime.Result {
	start := time.Now()
	tool, ok := d.Tool(call.Name)
	if !ok {
		return d.Invoke(ctx, runtime.Call{ID: call.ID, Name: call.Name})
	}
	args, err := Arguments(tool, call.Params)
	var argsErr *runtime.ArgsError
	switch {
	case errors.As(err, &argsErr):
		res := conversionResult(ctx, tool, args, argsErr)
		res.Duration = time.Since(start)
		return res
	case err != nil:
		return runtime.Result{
			Text:     fmt.Sprintf("%s cannot be called: its parameters cannot be read.", call.Name),
			IsError:  true,
			Err:      err,
			Duration: time.Since(start),
		}
	}
	return d.Invoke(ctx, runtime.Call{ID: call.ID, Name: call.Name, Args: args})
}

// conversionResult reports the values that did not convert and, from the tool's decoder, the
// other problems of the call, worded like the registry's invalid-arguments result.
func conversionResult(ctx context.Context, tool runtime.Tool, converted json.RawMessage, argsErr *runtime.ArgsError) runtime.Result {
	failed := make([]string, len(argsErr.Problems))
	for i, p := range argsErr.Problems {
		failed[i] = p.Path
	}
	problems := slices.Clone(argsErr.Problems)
	for _, p := range bindProblems(ctx, tool, converted) {
		// The decoder sees a failed value as missing; its own problem already says more.
		if !slices.ContainsFunc(failed, func(f string) bool { return p.Path == f || strings.HasPrefix(p.Path, f+"/") }) {
			problems = append(problems, p)
		}
	}
	named := &runtime.ArgsError{Tool: tool.Name, Problems: problems}
	return runtime.Result{
		Text:    named.Error() + "\nCorrect the arguments and call " + tool.Name + " again.",
		IsError: true,
		Err:     named,
	}
}

// bindProblems asks the tool's decoder what else is wrong with the arguments. A Bind that
// fails otherwise, or panics, adds nothing: the conversion problems stand on their own.
func bindProblems(ctx context.Context, tool runtime.Tool, args json.RawMessage) (problems []runtime.Problem) {
	if tool.Bind == nil {
		return nil
	}
	defer func() {
		if recover() != nil {
			problems = nil
		}
	}()
	_, err := tool.Bind(ctx, args)
	var argsErr *runtime.ArgsError
	if errors.As(err, &argsErr) {
		return argsErr.Problems
	}
	return nil
}

// Outcome is one call of a reply and what it returned.
type Outcome struct {
	Call   Call
	Result runtime.Result
}

// Turn is what Run made of one reply.
type Turn struct {
	// Text is the reply's prose, without its tool calls.
	Text string
	// Outcomes holds one entry per call, in the reply's order. When a block was malformed,
	// the last entry stands for it: an error result that tells the model what to fix.
	Outcomes []Outcome
	// Err is the *SyntaxError of a malformed block, or nil.
	Err error
}

// Run parses a reply and invokes its calls through d, one after another in the order
// written, so a call sees the effects of those before it. A malformed block stops the
// reading: the calls before it run, and the model is told where the block went wrong and
// that it and anything after it did not run.
func Run(ctx context.Context, d Dispatcher, reply string) Turn {
	r, err := Parse(reply)
	turn := Turn{Text: r.Text, Err: err}
	for _, c := range r.Calls {
		turn.Outcomes = append(turn.Outcomes, Outcome{Call: c, Result: Invoke(ctx, d, c)})
	}
	var syntax *SyntaxError
	if errors.As(err, &syntax) {
		call := Call{ID: "call_" + strconv.Itoa(len(r.Calls)+1), Name: syntax.Tool, Offset: syntax.Offset}
		turn.Outcomes = append(turn.Outcomes, Outcome{Call: call, Result: malformedResult(syntax)})
	}
	return turn
}

// malformedResult tells the model which block could not be read and why.
func malformedResult(e *SyntaxError) runtime.Result {
	return runtime.Result{
		Text: fmt.Sprintf("The tool call at line %d, column %d could not be read: %s. "+
			"It was not run, nor was anything after it in your reply; write it again, corrected.",
			e.Line, e.Column, e.Msg),
		IsError: true,
		Err:     e,
	}
}

// Results renders the outcomes as <tool_result> elements, in call order, for the model's
// next turn; it is empty when the reply had no calls.
func (t Turn) Results() string {
	var b strings.Builder
	for i, o := range t.Outcomes {
		if i > 0 {
			b.WriteByte('\n')
		}
		writeResult(&b, o.Call, o.Result)
	}
	return b.String()
}
