// Package emit renders the model of a package into the Go file toolgen generates, with
// jennifer. It only reads the model: every decision about the user's code was made, and every
// user error reported, by the parse and check phases.
//
// The generated file holds, per package:
//
//   - Tools() (plain funcs and client tools) and <Receiver>Tools(r) (methods), returning
//     runtime.Tool values with every directive's data, the canonical schemas as constants (a
//     text several tools share once), and the provider variants to derive at run time
//     (runtime.Tool.Dialects);
//   - per tool, a toolimpl.Binding: New (the call and its arguments in one allocation), the
//     arguments' decoder, and a Run that calls the handler and turns its return values into a
//     runtime.Result; toolimpl.BindingOf gives it back from the runtime.Tool, so one runtime
//     type serves every tool's calls;
//   - per argument type, a decoder that validates while it decodes, in one pass, collecting every
//     problem with its JSON Pointer path (runtime/decode);
//   - per structured result type, an encoder (runtime/encode);
//   - a compile-time guard: an assignment of each handler to its expected func type, so that
//     changing a handler without regenerating fails to build.
//
// Generated identifiers start with "toolgen" so they do not collide with the user's names.
// They derive from what they name, never from the order things were met (names.go): a type's
// tables after the type (toolgenStructWeatherArgs), a rule or value several fields may share
// after its content (toolgenString_3f9a1c2e, a hash of its declaration), so adding a field
// changes the declarations that hold it and adds its own, and renames nothing.
package emit

import (
	"bytes"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/dave/jennifer/jen"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/gen/schema"
)

// Header is the first line of every generated file; toolgen loads packages with -tags=toolgen,
// so its own stale output never breaks the next run.
const Header = "//go:build !toolgen"

// File renders the generated Go file of pkg.
// Options (Providers) adjust what it emits.
func File(pkg *model.Package, opts ...Option) ([]byte, error) {
	g := &generator{
		pkg:         pkg,
		f:           jen.NewFilePathName(pkg.Path, pkg.Name),
		idents:      map[*model.Type]string{},
		identOwner:  map[string]string{},
		fieldsOwner: map[string]string{},
		names:       map[string]string{},
		decoders:    map[string]bool{},
		encoders:    map[string]bool{},
		resultFuncs: map[string]bool{},
		constants:   map[string]string{},
	}
	g.opts = newOptions(opts)
	g.f.HeaderComment(Header)
	header := "// " + generatedComment(Version)
	for _, src := range sourceFiles(pkg) {
		header += "\n// source: " + src
	}
	g.f.HeaderComment(header)
	g.f.ImportName(runtimePath, "runtime")
	g.f.ImportName(toolimplPath, "toolimpl")
	g.f.ImportName("context", "context")
	if err := g.generate(); err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	if err := g.f.Render(&buf); err != nil {
		return nil, fmt.Errorf("internal error: rendering generated code for %s: %w (please report)", pkg.Path, err)
	}
	return buf.Bytes(), nil
}

type generator struct {
	pkg  *model.Package
	f    *jen.File
	opts options

	// idents holds the identifier fragment of each type (typeIdent); identOwner the type
	// (typeID) that holds each fragment, and fieldsOwner the fragment that names each
	// property list several types share (planIdents).
	idents      map[*model.Type]string
	identOwner  map[string]string
	fieldsOwner map[string]string
	// names holds the key of each name claimed for a declaration (claim).
	names map[string]string

	// decoders and encoders record, by name, the functions of named types that are (being)
	// emitted; pending lists those still to emit, so shared and recursive types get one
	// function each.
	decoders map[string]bool
	encoders map[string]bool
	// resultFuncs records the toolgenResult functions emitted.
	resultFuncs map[string]bool
	pending     []func() error

	// decls collects the emitted declarations by section so the file reads top-down:
	// registration, tools, decoders, encoders, pattern funcs; each section is sorted by name,
	// so a declaration's place does not depend on the order it was met in either.
	decodeDecls  []decl
	encodeDecls  []decl
	patternDecls []decl
	patterns     map[string]string // pattern → func name
	// constants names the declarations made once per content (declare, and the values
	// parsed once: decode.MultipleOf, decode.MustTime), by kind and text.
	constants map[string]string
	// field is the field whose decoder is being emitted ("CreateOrderArgs.Notes"), and usedBy
	// the fields each content-named declaration serves, for the comment above it.
	field  string
	usedBy map[string][]string
	locals int // counter for unique local names in inlined code, from 0 in each function

	// hasDialects says the tools derive provider variants (dialectsVar is declared).
	hasDialects bool
	// noArgs says noArgsFunc is declared.
	noArgs bool
	// schemas decides the pieces each schema text is declared in.
	schemas *schemaPieces
}

type decl struct {
	name string
	code jen.Code
}

func (g *generator) generate() error {
	g.f.Comment("A compile error here means toolgen generated this file for another version of its runtime:").Line().Comment("run go generate with the toolgen go.mod requires (go tool toolgen).")
	g.f.Const().Id("_").Op("=").Qual(toolimplPath, "SupportsGeneratedV7")
	g.f.Line()
	if err := g.staleGuard(); err != nil {
		return err
	}

	g.planIdents()
	g.hasDialects = g.dialects()
	g.declareSchemaPieces()
	for _, kind := range serveKinds {
		for _, grp := range groupByReceiver(servedAs(g.pkg.Tools, kind)) {
			grp.serve = kind
			if err := g.toolsFunc(grp); err != nil {
				return err
			}
		}
	}
	for _, t := range g.pkg.Tools {
		if err := g.tool(t); err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
	}
	// Emitting a decoder may discover more named types; drain until none is left.
	for len(g.pending) > 0 {
		next := g.pending[0]
		g.pending = g.pending[1:]
		if err := next(); err != nil {
			return err
		}
	}
	for _, section := range [][]decl{g.decodeDecls, g.encodeDecls, g.patternDecls} {
		sort.Slice(section, func(i, j int) bool { return section[i].name < section[j].name })
		for _, d := range section {
			if c := usedByComment(d.name, g.usedBy[d.name]); c != "" {
				g.f.Comment(c)
			}
			g.f.Add(d.code)
			g.f.Line()
		}
	}
	return nil
}

// receiverGroup is the tools returned by one generated Tools function.
type receiverGroup struct {
	receiver *model.Receiver // nil: Tools()
	serve    model.ServeKind // Tools, Prompts or Resources
	tools    []*model.Tool
}

func groupByReceiver(tools []*model.Tool) []receiverGroup {
	var plain receiverGroup
	byRecv := map[string]*receiverGroup{}
	var names []string
	for _, t := range tools {
		r := t.Handler.Receiver
		if r == nil {
			plain.tools = append(plain.tools, t)
			continue
		}
		grp, ok := byRecv[r.TypeName]
		if !ok {
			grp = &receiverGroup{receiver: r}
			byRecv[r.TypeName] = grp
			names = append(names, r.TypeName)
		}
		grp.tools = append(grp.tools, t)
	}
	sort.Strings(names)
	var out []receiverGroup
	if len(plain.tools) > 0 {
		out = append(out, plain)
	}
	for _, n := range names {
		out = append(out, *byRecv[n])
	}
	return out
}

// toolsFunc emits Tools(), or the method (*Receiver).Tools() and <Receiver>Tools(r *Receiver).
func (g *generator) toolsFunc(grp receiverGroup) error {
	var elems []jen.Code
	for _, t := range grp.tools {
		lit, err := g.toolLiteral(t)
		if err != nil {
			return fmt.Errorf("tool %s: %w", t.Name, err)
		}
		elems = append(elems, lit)
	}
	// The tools are data the linker lays out; the function returns a copy with the bindings.
	noun := serveNoun(grp.serve)
	toolsVar, fn := "toolgen"+noun, noun
	if grp.receiver != nil {
		fn = grp.receiver.TypeName + noun
		toolsVar = "toolgen" + fn
	}
	g.f.Commentf("%s are the tools %s returns, without their bindings and schemas.", toolsVar, fn)
	g.f.Var().Id(toolsVar).Op("=").Index(jen.Op("...")).Qual(runtimePath, "Tool").Values(elems...)
	g.f.Line()
	// Schemas are strings: the linker keeps one copy of a text several tools share, where a
	// json.RawMessage in each literal would be an array of its own.
	var schemas []jen.Code
	for _, t := range grp.tools {
		schemas = append(schemas, jen.Values(g.schemas.render(schema.Input(t)), g.schemas.render(schema.Output(t))))
	}
	schemasVar := toolsVar + "Schemas"
	g.f.Commentf("%s are the input and output schemas of %s, in order, in pieces.", schemasVar, toolsVar)
	onePerLine := jen.Options{Open: "{", Close: "}", Separator: ",", Multi: true}
	g.f.Var().Id(schemasVar).Op("=").Index(jen.Op("...")).Index(jen.Lit(2)).Index().String().Custom(onePerLine, schemas...)
	g.f.Line()
	bindings := jen.Id(bindingsVar(grp.serve)).Index(jen.Op(":"))
	if grp.receiver == nil {
		var refs []jen.Code
		for _, t := range grp.tools {
			refs = append(refs, jen.Op("&").Id(bindingName(t)))
		}
		g.f.Commentf("%s are the bindings of %s, in order.", bindingsVar(grp.serve), toolsVar)
		g.f.Var().Id(bindingsVar(grp.serve)).Op("=").Index(jen.Op("...")).Op("*").Qual(toolimplPath, "Binding").Values(refs...)
		g.f.Line()
	} else {
		elems, err := g.receiverBindings(grp)
		if err != nil {
			return err
		}
		bindings = jen.Index().Op("*").Qual(toolimplPath, "Binding").Values(elems...)
	}
	// The provider variants are the package's: BindTools sets them, so the tools stay static
	// data (a slice of a package-level array in each literal would be set by code).
	dialects := jen.Nil()
	if g.hasDialects {
		dialects = jen.Id(dialectsVar)
	}
	body := jen.Return(jen.Qual(toolimplPath, "BindTools").Call(jen.Id(toolsVar).Index(jen.Op(":")), bindings, jen.Id(schemasVar).Index(jen.Op(":")), dialects))
	switch {
	case grp.receiver == nil && grp.serve == model.ServeTool:
		g.f.Commentf("Tools returns the tools of package %s, sorted by name, for runtime.Registry.Add.", g.pkg.Name)
		g.f.Func().Id("Tools").Params().Index().Qual(runtimePath, "Tool").Block(body)
	case grp.receiver == nil:
		g.f.Commentf("%s returns the MCP %s of package %s (//tool:%s), sorted by name, for runtime/mcp's With%s.", fn, strings.ToLower(noun), g.pkg.Name, grp.serve, noun)
		g.f.Func().Id(fn).Params().Index().Qual(runtimePath, "Tool").Block(body)
	default:
		g.receiverFuncs(grp, noun, fn, body)
	}
	g.f.Line()
	return nil
}

// receiverFuncs emits the method r.Tools() (r.Prompts(), r.Resources()) with body, and
// <Receiver>Tools(r), the function generated before the method, now calling it. A type that
// declares a Tools member of its own keeps only the function, with body.
func (g *generator) receiverFuncs(grp receiverGroup, noun, fn string, body *jen.Statement) {
	recv := grp.receiver.TypeName
	what := "tools"
	if grp.serve != model.ServeTool {
		what = "MCP " + strings.ToLower(noun)
	}
	returns := jen.Index().Qual(runtimePath, "Tool")
	if !hasMethodNamed(grp.receiver, noun) {
		g.f.Commentf("%s returns the %s implemented by methods of %s, bound to r, sorted by name. (%s declares a %s of its own, so there is no generated %s method.)", fn, what, recv, recv, noun, noun)
		g.f.Func().Id(fn).Params(jen.Id("r").Op("*").Id(recv)).Add(returns).Block(body)
		return
	}
	g.f.Commentf("%s returns the %s implemented by methods of %s, bound to r, sorted by name.", noun, what, recv)
	g.f.Func().Params(jen.Id("r").Op("*").Id(recv)).Id(noun).Params().Add(returns).Block(body)
	g.f.Line()
	g.f.Commentf("%s returns r.%s().", fn, noun)
	g.f.Comment("")
	g.f.Commentf("Deprecated: call r.%s().", noun)
	g.f.Func().Id(fn).Params(jen.Id("r").Op("*").Id(recv)).Add(returns).Block(jen.Return(jen.Id("r").Dot(noun).Call()))
}

// origin names where a tool was declared, for the registry's duplicate-name error: the
// package path and the Go name of its handler (of its args type, for a client tool). No line
// number: it would change the generated file with every edit above the handler.
func origin(pkg *model.Package, t *model.Tool) string {
	h := t.Handler
	switch {
	case t.Client && t.Args != nil && t.Args.Named != nil:
		return pkg.Path + "." + t.Args.Named.Name
	case h.Receiver != nil && h.Receiver.Pointer:
		return pkg.Path + ".(*" + h.Receiver.TypeName + ")." + h.Name
	case h.Receiver != nil:
		return pkg.Path + "." + h.Receiver.TypeName + "." + h.Name
	}
	return pkg.Path + "." + h.Name
}

// toolLiteral renders one runtime.Tool value.
func (g *generator) toolLiteral(t *model.Tool) (jen.Code, error) {
	d := jen.Dict{}
	str := func(field, v string) {
		if v != "" {
			d[jen.Id(field)] = jen.Lit(v)
		}
	}
	strs := func(field string, v []string) {
		if len(v) > 0 {
			d[jen.Id(field)] = stringList(v)
		}
	}
	str("Name", t.Name)
	str("Origin", origin(g.pkg, t))
	str("Title", t.Title)
	str("Description", t.Description)
	str("Detail", t.Detail)
	tags := t.Tags
	if len(tags) == 0 {
		tags = g.pkg.DefaultTags
	}
	strs("Tags", tags)
	str("Category", t.Category)
	if len(t.Icons) > 0 {
		var items []jen.Code
		for _, ic := range t.Icons {
			id := jen.Dict{jen.Id("Src"): jen.Lit(ic.Src)}
			if ic.MIMEType != "" {
				id[jen.Id("MIMEType")] = jen.Lit(ic.MIMEType)
			}
			if len(ic.Sizes) > 0 {
				id[jen.Id("Sizes")] = stringList(ic.Sizes)
			}
			if ic.Theme != "" {
				id[jen.Id("Theme")] = jen.Lit(ic.Theme)
			}
			items = append(items, jen.Values(id))
		}
		d[jen.Id("Icons")] = jen.Index().Qual(runtimePath, "Icon").Values(items...)
	}
	if t.Timeout > 0 {
		d[jen.Id("Timeout")] = durationLit(t.Timeout)
	}
	if t.NoTimeout {
		d[jen.Id("NoTimeout")] = jen.True()
	}
	if r := t.Retry; r != nil {
		d[jen.Id("Retry")] = jen.Qual(runtimePath, "RetryPolicy").Values(jen.Dict{
			jen.Id("Max"):      jen.Lit(r.Max),
			jen.Id("Delay"):    durationLit(r.Delay),
			jen.Id("Backoff"):  jen.Lit(r.Backoff),
			jen.Id("MaxDelay"): durationLit(r.MaxDelay),
		})
	}
	if t.Confirm {
		d[jen.Id("Permission")] = jen.Qual(runtimePath, "PermissionConfirm")
	} else {
		d[jen.Id("Permission")] = jen.Qual(runtimePath, "PermissionAuto")
	}
	str("ConfirmReason", t.ConfirmReason)
	if t.Risk != "" {
		d[jen.Id("Risk")] = jen.Qual(runtimePath, "Risk").Call(jen.Lit(t.Risk))
	}
	if h := t.Hints; h != (model.Hints{}) {
		hd := jen.Dict{}
		for name, on := range map[string]bool{"ReadOnly": h.ReadOnly, "Idempotent": h.Idempotent, "Destructive": h.Destructive, "OpenWorld": h.OpenWorld} {
			if on {
				hd[jen.Id(name)] = jen.True()
			}
		}
		d[jen.Id("Hints")] = jen.Qual(runtimePath, "Hints").Values(hd)
	}
	if len(t.Examples) > 0 {
		var items []jen.Code
		for _, ex := range t.Examples {
			ed := jen.Dict{jen.Id("Args"): jen.Qual("encoding/json", "RawMessage").Call(rawString([]byte(ex.Args)))}
			if ex.Scenario != "" {
				ed[jen.Id("Scenario")] = jen.Lit(ex.Scenario)
			}
			if ex.Expected != "" {
				ed[jen.Id("Expected")] = jen.Lit(ex.Expected)
			}
			items = append(items, jen.Values(ed))
		}
		d[jen.Id("Examples")] = jen.Index().Qual(runtimePath, "Example").Values(items...)
	}
	strs("Triggers", t.Triggers)
	if len(t.Prerequisites) > 0 {
		var items []jen.Code
		for _, pr := range t.Prerequisites {
			pd := jen.Dict{jen.Id("Condition"): jen.Lit(pr.Condition)}
			if pr.Check != "" {
				pd[jen.Id("Check")] = jen.Lit(pr.Check)
			}
			if pr.Else != "" {
				pd[jen.Id("Else")] = jen.Lit(pr.Else)
			}
			items = append(items, jen.Values(pd))
		}
		d[jen.Id("Prerequisites")] = jen.Index().Qual(runtimePath, "Prerequisite").Values(items...)
	}
	if len(t.Workflow) > 0 {
		var items []jen.Code
		for _, st := range t.Workflow {
			sd := jen.Dict{jen.Id("Name"): jen.Lit(st.Name)}
			if st.Tool != "" {
				sd[jen.Id("Tool")] = jen.Lit(st.Tool)
			}
			if st.Condition != "" {
				sd[jen.Id("Condition")] = jen.Lit(st.Condition)
			}
			items = append(items, jen.Values(sd))
		}
		d[jen.Id("Workflow")] = jen.Index().Qual(runtimePath, "WorkflowStep").Values(items...)
	}
	strs("Warnings", t.Warnings)
	if len(t.Related) > 0 {
		var items []jen.Code
		for _, r := range t.Related {
			rd := jen.Dict{jen.Id("Name"): jen.Lit(r.Name)}
			if r.Relation != "" {
				rd[jen.Id("Relation")] = jen.Lit(r.Relation)
			}
			items = append(items, jen.Values(rd))
		}
		d[jen.Id("Related")] = jen.Index().Qual(runtimePath, "Related").Values(items...)
	}
	strs("Filters", t.Filters)
	if meta := metadata(t); len(meta) > 0 {
		md := jen.Dict{}
		for _, m := range meta {
			md[jen.Lit(m.Key)] = jen.Lit(m.Value)
		}
		d[jen.Id("Metadata")] = jen.Map(jen.String()).String().Values(md)
	}
	if t.MaxArgs > 0 {
		d[jen.Id("MaxArgs")] = jen.Lit(t.MaxArgs)
	}
	if t.MaxResult > 0 {
		d[jen.Id("MaxResult")] = jen.Lit(t.MaxResult)
	}
	if t.MaxCalls > 0 {
		d[jen.Id("MaxCalls")] = jen.Lit(t.MaxCalls)
	}
	if t.ModelRetries > 0 {
		d[jen.Id("ModelRetries")] = jen.Lit(t.ModelRetries)
	}
	if t.Sequential {
		d[jen.Id("Sequential")] = jen.True()
	}
	switch t.Task {
	case model.TaskOptional:
		d[jen.Id("Task")] = jen.Qual(runtimePath, "TaskOptional")
	case model.TaskRequired:
		d[jen.Id("Task")] = jen.Qual(runtimePath, "TaskRequired")
	}
	if t.Client {
		d[jen.Id("Client")] = jen.True()
	}
	if t.Deferred {
		d[jen.Id("Deferred")] = jen.True()
	}
	str("Namespace", t.Namespace)
	str("PackageDescription", t.PackageDescription)
	if c := t.Callers; c != (model.Callers{}) {
		cd := jen.Dict{}
		if c.Direct {
			cd[jen.Id("Direct")] = jen.True()
		}
		if c.Code {
			cd[jen.Id("Code")] = jen.True()
		}
		d[jen.Id("Callers")] = jen.Qual(runtimePath, "Callers").Values(cd)
	}
	strs("Scopes", t.Scopes)
	return jen.Values(d), nil
}

// stringList renders a []string literal.
func stringList(v []string) jen.Code {
	items := make([]jen.Code, len(v))
	for i, s := range v {
		items[i] = jen.Lit(s)
	}
	return jen.Index().String().Values(items...)
}

// declareSchemaPieces declares the constants the package's schemas are built from: each
// whole schema several tools share, and each part several schemas share.
func (g *generator) declareSchemaPieces() {
	var texts [][]byte
	var labels []string
	for _, t := range g.pkg.Tools {
		if text := schema.Input(t); text != nil {
			label := "NoArgs"
			if t.Args != nil {
				label = g.typeIdent(pointee(t.Args))
			}
			texts, labels = append(texts, text), append(labels, label)
		}
		if text := schema.Output(t); text != nil {
			texts, labels = append(texts, text), append(labels, g.typeIdent(pointee(t.Result))+"Output")
		}
	}
	g.schemas = newSchemaPieces(texts, labels)
	for _, c := range g.schemas.decls {
		g.f.Comment(c.doc)
		g.f.Const().Id(c.name).Op("=").Add(schemaLines([]byte(c.text)))
		g.f.Line()
	}
}

// rawString renders JSON as a raw string literal, which keeps schemas readable in the
// generated file and its diffs, falling back to a quoted string when the text holds a
// backquote or a carriage return.
func rawString(text []byte) jen.Code {
	if bytes.ContainsAny(text, "`\r") {
		return jen.Lit(string(text))
	}
	return jen.Id("`" + string(text) + "`")
}

// durationLit renders a duration readably: 10 * time.Second rather than 10000000000.
func durationLit(d time.Duration) jen.Code {
	units := []struct {
		name string
		size time.Duration
	}{{"Hour", time.Hour}, {"Minute", time.Minute}, {"Second", time.Second}, {"Millisecond", time.Millisecond}, {"Microsecond", time.Microsecond}}
	for _, u := range units {
		if d != 0 && d%u.size == 0 {
			return jen.Id(strconv.FormatInt(int64(d/u.size), 10)).Op("*").Qual("time", u.name)
		}
	}
	return jen.Qual("time", "Duration").Call(jen.Lit(int64(d)))
}

// hasToolsMethod reports whether the generated code declares (*r).Tools: it does unless the
// type has a member of that name of its own.
func hasToolsMethod(r *model.Receiver) bool { return hasMethodNamed(r, "Tools") }

// hasMethodNamed reports whether the generated code declares the method noun (Tools, Prompts,
// Resources) on r.
func hasMethodNamed(r *model.Receiver, noun string) bool { return !slices.Contains(r.Members, noun) }
