package disclosure

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"github.com/toolgen-go/toolgen/runtime/internal/sessionlist"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// InfoToolName is the name of the level-2 tool.
const InfoToolName = "get_tool_info"

// Disclosure exposes a registry progressively: the model starts with the catalog (level 1)
// and the get_tool_info tool, and learns a tool's full contract (level 2) by asking for it.
// Each tool the model asked about is revealed in the call's session (runtime.Call.Session):
// ToolsIn then declares its full schema too, so a provider with a native tool API lets the
// model call it on the next turn. One conversation's questions never change what another is
// declared; what a session revealed lives in the registry's session store, and ends with it.
//
// A Disclosure is safe for concurrent use. It reads the registry on every call, so tools added
// to the registry later appear in the catalog and can be asked about.
type Disclosure struct {
	reg  *runtime.Registry
	info runtime.Tool
	// own holds only get_tool_info, so its calls get the registry's argument errors, result
	// timing and panic recovery without adding a tool to the caller's registry.
	own *runtime.Registry

	mu       sync.Mutex
	revealed map[string]bool // by Reveal, in every session

	all *runtime.Registry // the tools of reg and get_tool_info, for the provider adapters
}

// New returns a Disclosure of reg. It refuses a registry that already holds a tool named
// get_tool_info, which the level-2 tool would hide.
func New(reg *runtime.Registry) (*Disclosure, error) {
	if reg == nil {
		return nil, fmt.Errorf("disclosure: nil registry")
	}
	if _, taken := reg.Tool(InfoToolName); taken {
		return nil, fmt.Errorf("disclosure: the registry already has a tool named %q, the name of the level-2 tool", InfoToolName)
	}
	d := &Disclosure{reg: reg, revealed: make(map[string]bool)}
	d.info = runtime.Tool{
		Name:        InfoToolName,
		Title:       "Get tool info",
		Description: "Returns how to use a tool from the catalog: what it does, its parameters, examples, when to use it, prerequisites, warnings and related tools. Call it before using a tool for the first time.",
		Permission:  runtime.PermissionAuto,
		Hints:       runtime.Hints{ReadOnly: true, Idempotent: true},
		Examples: []runtime.Example{{
			Scenario: "Learn how to call get_weather",
			Args:     json.RawMessage(`{"name":"get_weather"}`),
		}},
		InputSchema: json.RawMessage(infoSchema),
		// The adapters declare it like the generated tools, from variants derived on first use.
		Dialects: []string{variant.OpenAI, variant.Anthropic, variant.AnthropicStrict,
			variant.GeminiParameters, variant.GeminiJSONSchema},
		Bind: d.bindInfo,
	}
	d.own = runtime.NewRegistry()
	if err := d.own.Add(d.info); err != nil {
		return nil, fmt.Errorf("disclosure: %w", err)
	}
	all, err := reg.Subset(reg.Names()...)
	if err == nil {
		err = all.Add(d.info)
	}
	if err != nil {
		return nil, fmt.Errorf("disclosure: %w", err)
	}
	d.all = all
	return d, nil
}

// Registry returns a registry that runs get_tool_info and every tool of the wrapped registry
// (as it was at New), with the same options. The provider adapters dispatch through a
// *runtime.Registry, so a host using one declares d.Tools() and dispatches with it:
//
//	tools, err := openai.ChatToolsJSON(d.Tools())
//	...
//	outs := openai.Dispatch(ctx, d.Registry(), calls)
func (d *Disclosure) Registry() *runtime.Registry { return d.all }

const infoSchema = `{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"name":{"description":"The tool's name, as the catalog lists it.","type":"string","minLength":1}},"required":["name"],"additionalProperties":false}`

// InfoTool returns the get_tool_info tool. Declare it to the provider (Tools does) and route
// its calls through Invoke.
func (d *Disclosure) InfoTool() runtime.Tool { return d.info }

// Catalog returns the level-1 text for the system prompt: how to learn more, then one line
// per registered tool (see the package function Catalog). Deferred tools (//tool:defer) are
// left out, as they are from every provider's definitions: a model finds them with a search
// (runtime/toolsearch's tool_search, or the provider's own), and the text says how many there
// are.
func (d *Disclosure) Catalog() string { return d.CatalogFor(context.Background()) }

// CatalogFor returns the level-1 text, as Catalog does, of the tools the caller of ctx may call
// (runtime.Grant, Registry.ToolsFor): the catalog of a model acting for that caller.
func (d *Disclosure) CatalogFor(ctx context.Context) string {
	var listed []runtime.Tool
	deferred := 0
	for _, t := range d.reg.ToolsFor(ctx) {
		if t.Deferred {
			deferred++
			continue
		}
		listed = append(listed, t)
	}
	text := "Tools you can use are listed below, one per line. Before using a tool for the first time, call " +
		InfoToolName + " with its name to learn its parameters and how to use it.\n\n" + Catalog(listed)
	if deferred > 0 {
		verb, them := "are", "them"
		if deferred == 1 {
			verb, them = "is", "it"
		}
		text += fmt.Sprintf("\n\n%s %s not listed; search for %s (tool_search) when none of the above fits the task.", plural.Of(deferred, "more tool"), verb, them)
	}
	return text
}

// revealedKey is the session-state key under which the tools a session asked about are kept.
const revealedKey = "disclosure.revealed"

// Tools returns the tools to declare to a provider for calls without a session
// (runtime.Call.Session empty): ToolsIn(context.Background(), "").
func (d *Disclosure) Tools() []runtime.Tool {
	return d.ToolsIn(context.Background(), "")
}

// ToolsIn returns the tools to declare to a provider in session: get_tool_info, every tool
// Reveal declared and every tool the session asked about, sorted by name; of those, only the
// tools the caller of ctx may call (runtime.Grant).
func (d *Disclosure) ToolsIn(ctx context.Context, session string) []runtime.Tool {
	d.mu.Lock()
	names := make([]string, 0, len(d.revealed))
	for name := range d.revealed {
		names = append(names, name)
	}
	d.mu.Unlock()
	for _, name := range sessionlist.Get(ctx, d.all.Session(session), revealedKey) {
		if !slices.Contains(names, name) {
			names = append(names, name)
		}
	}

	out := []runtime.Tool{d.info}
	for _, name := range names {
		if t, ok := d.reg.ToolFor(ctx, name); ok {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b runtime.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Reveal declares tools up front, in every session, as if the model had asked about them: a
// host that knows an agent will need a tool saves it a round trip. Unknown names are an
// error, and nothing is revealed then.
func (d *Disclosure) Reveal(names ...string) error {
	known := d.reg.Names()
	var unknown []string
	for _, name := range names {
		if !slices.Contains(known, name) {
			unknown = append(unknown, suggest.Quoted(name, known))
		}
	}
	if len(unknown) > 0 {
		return fmt.Errorf("disclosure: reveal: %w: %s", runtime.ErrUnknownTool, strings.Join(unknown, ", "))
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, name := range names {
		d.revealed[name] = true
	}
	return nil
}

// Tool returns the tool called name: get_tool_info, or a tool of the registry.
func (d *Disclosure) Tool(name string) (runtime.Tool, bool) {
	if name == InfoToolName {
		return d.info, true
	}
	return d.reg.Tool(name)
}

// ToolFor returns the tool called name, as Tool does, when the caller of ctx may call it
// (runtime.Grant): get_tool_info always.
func (d *Disclosure) ToolFor(ctx context.Context, name string) (runtime.Tool, bool) {
	if name == InfoToolName {
		return d.info, true
	}
	return d.reg.ToolFor(ctx, name)
}

// NamesFor returns the names of get_tool_info and of the tools the caller of ctx may call
// (runtime.Grant), sorted.
func (d *Disclosure) NamesFor(ctx context.Context) []string {
	names := append(d.reg.NamesFor(ctx), InfoToolName)
	slices.Sort(names)
	return names
}

// Invoke runs a call: get_tool_info is answered here, every other call goes to the registry.
// A call to a tool not yet revealed still runs: the model may know its contract from
// elsewhere, and the registry's argument errors guide it when it does not.
func (d *Disclosure) Invoke(ctx context.Context, call runtime.Call) runtime.Result {
	if call.Name == InfoToolName {
		return d.own.Invoke(ctx, call)
	}
	return d.reg.Invoke(ctx, call)
}

// InvokeAll runs the calls of one model turn as Registry.InvokeAll does (concurrently,
// //tool:sequential tools as barriers, results in call order); get_tool_info calls, which
// change nothing, are answered first, here. runtime/xmlcall runs a reply's calls with it.
func (d *Disclosure) InvokeAll(ctx context.Context, calls []runtime.Call) []runtime.Result {
	results := make([]runtime.Result, len(calls))
	var rest []runtime.Call
	var at []int
	for i, call := range calls {
		if call.Name == InfoToolName {
			results[i] = d.own.Invoke(ctx, call)
			continue
		}
		rest = append(rest, call)
		at = append(at, i)
	}
	for k, res := range d.reg.InvokeAll(ctx, rest) {
		results[at[k]] = res
	}
	return results
}

// Repairer returns the wrapped registry's Repairer (runtime.WithRepair), or nil.
func (d *Disclosure) Repairer() runtime.Repairer { return d.reg.Repairer() }

// ArgsFeedback returns the wrapped registry's ArgsFeedback (runtime.WithArgsFeedback), or nil.
func (d *Disclosure) ArgsFeedback() runtime.ArgsFeedback { return d.reg.ArgsFeedback() }

// Names returns the names of get_tool_info and every tool of the wrapped registry, sorted.
func (d *Disclosure) Names() []string {
	names := append(d.reg.Names(), InfoToolName)
	slices.Sort(names)
	return names
}

// infoCall is a get_tool_info call whose argument passed validation.
type infoCall struct {
	d    *Disclosure
	name string
}

func (c *infoCall) Args() any { return &c.name }

func (c *infoCall) Run(ctx context.Context) runtime.Result {
	// A tool outside the caller's grant is described as a name no tool has.
	t, ok := c.d.info, c.name == InfoToolName
	if !ok {
		t, ok = c.d.reg.ToolFor(ctx, c.name)
	}
	if !ok {
		return runtime.UnknownToolResult(c.name, c.d.reg.NamesFor(ctx))
	}
	info, err := Describe(t)
	if err != nil {
		return runtime.Result{
			Text:    fmt.Sprintf("no information is available for %s.", c.name),
			IsError: true,
			Err:     err,
		}
	}
	if c.name != InfoToolName {
		var session string
		if ci, ok := runtime.CallInfoFrom(ctx); ok {
			session = ci.Session
		}
		// At most every tool once: the list needs no limit.
		if err := sessionlist.Add(ctx, c.d.all.Session(session), revealedKey, []string{c.name}, 0); err != nil {
			return runtime.ErrorResult(err)
		}
	}
	return runtime.TextResult(info.Text())
}

// infoProps are the properties of get_tool_info, for did-you-mean hints.
var infoProps = []string{"name"}

// bindInfo decodes get_tool_info's arguments the way generated decoders do: in one pass,
// reporting every problem (unknown properties with a hint, a missing or empty name, a wrong
// type) with its JSON Pointer path.
func (d *Disclosure) bindInfo(_ context.Context, data []byte) (runtime.BoundCall, error) {
	call := &infoCall{d: d}
	dec := decode.Acquire(data)
	defer decode.Release(dec)
	var ps decode.Problems
	if err := decodeInfoArgs(dec, call, &ps); err != nil {
		return nil, decode.InvalidJSON(data, err)
	}
	if err := decode.Finish(dec); err != nil {
		return nil, err
	}
	if err := ps.Err(); err != nil {
		return nil, err
	}
	return call, nil
}

func decodeInfoArgs(d *decode.Decoder, call *infoCall, ps *decode.Problems) error {
	if d.Next() != decode.Object {
		return decode.WrongType(d, ps, nil, "an object")
	}
	it, err := d.ObjIter()
	if err != nil {
		return err
	}
	seen := false
	for it.Next() {
		if string(it.Key()) != "name" {
			if err := decode.SkipUnknown(d, ps, nil, it.Key(), infoProps); err != nil {
				return err
			}
			continue
		}
		if seen {
			if err := decode.SkipDuplicate(d, ps, nil, "name"); err != nil {
				return err
			}
			continue
		}
		seen = true
		p := (*decode.Path)(nil).Key("name")
		s, ok, err := decode.ReadString(d, ps, &p)
		if err != nil {
			return err
		}
		if ok && s == "" {
			ps.Length(&p, "at least", 1, 0)
		}
		call.name = s
	}
	if err := it.Err(); err != nil {
		return err
	}
	if !seen {
		ps.Missing(nil, "name")
	}
	return nil
}
