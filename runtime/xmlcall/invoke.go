package xmlcall

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolgen-go/toolgen/internal/plural"
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
	return arguments(t, params, false, false)
}

// arguments is Arguments; with repairing, an array or object value that is not valid JSON is
// passed on as a string, for the registry's Repairer to take out of a fence or rid of
// trailing commas, and its decoder to refuse when it cannot. With keepFailed, a value that
// does not convert is written as a string instead of left out: the arguments as the model
// meant them, for feedback that shows them.
func arguments(t runtime.Tool, params []Param, repairing, keepFailed bool) (json.RawMessage, error) {
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
			if value, problem = coerce(declared[i], p.Value, repairing); problem != "" {
				path := (*decode.Path)(nil).Key(p.Name)
				problems = append(problems, runtime.Problem{Path: path.String(), Message: problem})
				if !keepFailed {
					continue
				}
				value = quote(p.Value)
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
func coerce(p disclosure.Parameter, value string, repairing bool) (json.RawMessage, string) {
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
	if has("array") && strings.HasPrefix(text, "[") || has("object") && strings.HasPrefix(text, "{") ||
		repairing && (has("array") || has("object")) && strings.HasPrefix(text, "```") {
		// Compact validates as it goes; what the value holds is the decoder's to judge.
		var c bytes.Buffer
		if err := json.Compact(&c, []byte(text)); err != nil {
			if repairing {
				return quote(value), ""
			}
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
// available tools (or, when d is a registry WithRepair, finds the tool a misspelled name
// means).
func Invoke(ctx context.Context, d Dispatcher, call Call) runtime.Result {
	start := time.Now()
	native, res, ok := prepare(ctx, d, call)
	if !ok {
		res.Duration = time.Since(start)
		return recovered(call, res)
	}
	return recovered(call, d.Invoke(ctx, native))
}

// repairing is a Dispatcher that repairs calls: a *runtime.Registry.
type repairing interface {
	Repairer() runtime.Repairer
	Names() []string
}

// grantedDispatcher is a Dispatcher that knows what the caller of a ctx may call
// (runtime.Grant): a *runtime.Registry or a *disclosure.Disclosure. A tool outside the grant
// is left to its Invoke, which refuses it as an unknown tool, before its parameters are read
// by its schema, whose problems would tell the caller of a tool it cannot see.
type grantedDispatcher interface {
	ToolFor(ctx context.Context, name string) (runtime.Tool, bool)
	NamesFor(ctx context.Context) []string
}

// feedbackDispatcher is a Dispatcher with argument feedback (runtime.WithArgsFeedback): a
// *runtime.Registry. Values that do not convert get the same feedback as the registry's
// invalid arguments.
type feedbackDispatcher interface {
	ArgsFeedback() runtime.ArgsFeedback
}

// prepare finds the tool of call and converts its parameters into a native call; ok false
// means the call ends here, with res.
func prepare(ctx context.Context, d Dispatcher, call Call) (native runtime.Call, res runtime.Result, ok bool) {
	native = runtime.Call{ID: call.ID, Name: call.Name}
	var repairer runtime.Repairer
	rd, isRepairing := d.(repairing)
	if isRepairing {
		repairer = rd.Repairer()
	}
	lookup, names := d.Tool, func() []string { return rd.Names() }
	if gd, ok := d.(grantedDispatcher); ok {
		lookup = func(name string) (runtime.Tool, bool) { return gd.ToolFor(ctx, name) }
		names = func() []string { return gd.NamesFor(ctx) }
	}
	tool, found := lookup(call.Name)
	if !found && repairer != nil {
		// The registry repairs the name again, and records it; the parameters need the
		// tool's schema now.
		if name, ok := repairer.RepairName(call.Name, names()); ok {
			tool, found = lookup(name)
		}
	}
	if !found {
		native.Args = call.Args
		return native, runtime.Result{}, true
	}
	if call.Args != nil {
		native.Args = call.Args
		return native, runtime.Result{}, true
	}
	args, err := arguments(tool, call.Params, repairer != nil, false)
	var argsErr *runtime.ArgsError
	switch {
	case errors.As(err, &argsErr):
		res := conversionResult(ctx, tool, args, argsErr)
		if fd, ok := d.(feedbackDispatcher); ok {
			if f := fd.ArgsFeedback(); f != nil {
				// The feedback shows the values that did not convert too, as the text written.
				shown, _ := arguments(tool, call.Params, repairer != nil, true)
				res.Text = f(&tool, shown, res.Err.(*runtime.ArgsError))
			}
		}
		return native, res, false
	case err != nil:
		return native, runtime.Result{
			Text:    fmt.Sprintf("%s cannot be called: its parameters cannot be read.", tool.Name),
			IsError: true,
			Err:     err,
		}, false
	}
	native.Args = args
	return native, runtime.Result{}, true
}

// MetadataRecovered is the key of Result.Metadata under which Run and Invoke list what the
// lenient reading of a call recovered (Call.Recovered).
const MetadataRecovered = "xmlcall.recovered"

// recovered records in res what the reading of call had to recover.
func recovered(call Call, res runtime.Result) runtime.Result {
	if len(call.Recovered) == 0 {
		return res
	}
	md := maps.Clone(res.Metadata)
	if md == nil {
		md = make(map[string]any, 1)
	}
	md[MetadataRecovered] = slices.Clone(call.Recovered)
	res.Metadata = md
	return res
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
		Kind:    runtime.KindInvalidInput,
	}
}

// bindProblems asks the tool's decoder what else is wrong with the arguments. A Bind that
// fails otherwise, or panics, adds nothing: the conversion problems stand on their own.
func bindProblems(ctx context.Context, tool runtime.Tool, args json.RawMessage) (problems []runtime.Problem) {
	defer func() {
		if recover() != nil {
			problems = nil
		}
	}()
	_, err := tool.BindArgs(ctx, args) // ErrNotBindable for a client tool: no problems added
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

// Run parses a reply with the zero Options and invokes its calls: see Options.Run.
func Run(ctx context.Context, d Dispatcher, reply string) Turn {
	return Options{}.Run(ctx, d, reply)
}

// batch is a Dispatcher that runs the calls of a turn together: *runtime.Registry.
type batch interface {
	InvokeAll(ctx context.Context, calls []runtime.Call) []runtime.Result
}

// Run parses a reply and invokes its calls through d as native calls of one turn run: with
// d's InvokeAll when it has one (a *runtime.Registry), concurrently, with //tool:sequential
// tools as barriers; otherwise one after another in the order written. Results come back in
// the reply's order.
//
// A malformed block stops the reading: the calls before it run, and the model is told where
// the block went wrong and that it and anything after it did not run. A reply over one of
// the limits runs nothing, and the model is told which limit it passed.
func (o Options) Run(ctx context.Context, d Dispatcher, reply string) Turn {
	r, err := o.Parse(reply)
	turn := Turn{Text: r.Text, Err: err}
	var limit *LimitError
	if errors.As(err, &limit) {
		turn.Outcomes = []Outcome{{Call: Call{ID: "call_1", Name: limit.Tool}, Result: limitResult(limit)}}
		return turn
	}
	turn.Outcomes = invokeAll(ctx, d, r.Calls)
	var syntax *SyntaxError
	if errors.As(err, &syntax) {
		call := Call{ID: "call_" + strconv.Itoa(len(r.Calls)+1), Name: syntax.Tool, Offset: syntax.Offset}
		turn.Outcomes = append(turn.Outcomes, Outcome{Call: call, Result: malformedResult(syntax)})
	}
	return turn
}

// invokeAll runs calls as one turn.
func invokeAll(ctx context.Context, d Dispatcher, calls []Call) []Outcome {
	if len(calls) == 0 {
		return nil
	}
	outs := make([]Outcome, len(calls))
	b, ok := d.(batch)
	if !ok {
		for i, c := range calls {
			outs[i] = Outcome{Call: c, Result: Invoke(ctx, d, c)}
		}
		return outs
	}
	start := time.Now()
	var natives []runtime.Call
	var at []int // at[k]: the call natives[k] came from
	for i, c := range calls {
		outs[i].Call = c
		native, res, ok := prepare(ctx, d, c)
		if !ok {
			res.Duration = time.Since(start)
			outs[i].Result = recovered(c, res)
			continue
		}
		natives = append(natives, native)
		at = append(at, i)
	}
	for k, res := range b.InvokeAll(ctx, natives) {
		outs[at[k]].Result = recovered(calls[at[k]], res)
	}
	return outs
}

// limitResult tells the model which limit its reply passed.
func limitResult(e *LimitError) runtime.Result {
	var text string
	switch e.Limit {
	case "bytes":
		text = fmt.Sprintf("Your reply is longer than %s, so none of its tool calls was run. Write shorter calls.", plural.Of(e.Max, "byte"))
	case "calls":
		text = fmt.Sprintf("Your reply has more than %s, so none was run. Make at most %s in one reply.", plural.Of(e.Max, "tool call"), plural.Of(e.Max, "call"))
	default:
		text = fmt.Sprintf("A call of %s in your reply has more than %s, so none of its tool calls was run. Write at most %s per call.", e.Tool, plural.Of(e.Max, "parameter"), plural.Of(e.Max, "parameter"))
	}
	return runtime.Result{Text: text, IsError: true, Err: e, Kind: runtime.KindLimit}
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
