package parse

import (
	"cmp"
	"go/ast"
	"go/token"
	"go/types"
	"path/filepath"
	"slices"
	"strings"

	"golang.org/x/tools/go/packages"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/load"
	"github.com/toolgen-go/toolgen/gen/model"
)

// Package builds the model of one loaded package: its tools (sorted by name), with every
// diagnostic recorded in diags. It returns nil when the package declares no tools.
//
// Directive problems anywhere in the package are reported even when it declares no tools, so
// a misspelled //tool:nmae on the only handler is an error, not silence.
func Package(l *load.Loader, pkg *packages.Package, diags *diag.List) *model.Package {
	if pkg == nil || pkg.Types == nil || pkg.TypesInfo == nil {
		return nil
	}
	p := &parser{
		l:       l,
		pkg:     pkg,
		diags:   diags,
		sources: map[string]*source{pkg.PkgPath: newSource(pkg)},
		named:   map[string]*model.Type{},
	}
	return p.parsePackage()
}

// parser holds the state of parsing one package. Named types are converted once and shared
// (see convertNamed), which also makes recursive types terminate.
type parser struct {
	l       *load.Loader
	pkg     *packages.Package
	diags   *diag.List
	sources map[string]*source     // declarations by import path; nil: no syntax available
	named   map[string]*model.Type // by types.TypeString; nil: failed, already reported
}

// directive is one recognised //tool: line of a doc comment.
type directive struct {
	parsed *annotations.Parsed
	pos    model.Position // the comment's "//"
	at     func(offset int) model.Position
}

// docOwner is a declaration whose doc comment holds directives.
type docOwner struct {
	fn   *ast.FuncDecl
	typ  *ast.TypeSpec
	doc  *ast.CommentGroup
	dirs []directive
	// marked is set when the doc has a //tool: line, even one with problems, so the
	// declaration still counts as a tool and its other errors are reported too.
	marked bool
}

func (p *parser) parsePackage() *model.Package {
	var owners []*docOwner
	var pkgDirs []directive
	for _, f := range p.pkg.Syntax {
		fileOwners, fileDirs := p.scanFile(f)
		owners = append(owners, fileOwners...)
		pkgDirs = append(pkgDirs, fileDirs...)
	}

	out := &model.Package{Path: p.pkg.PkgPath, Name: p.pkg.Name, Dir: load.PackageDir(p.pkg)}
	for _, d := range p.counted(pkgDirs) {
		if d.parsed.Directive.Name == "tests" {
			out.Tests = true
		}
		switch v := d.parsed.Value.(type) {
		case []string:
			if d.parsed.Directive.Name == "tags" {
				out.DefaultTags = v
			}
		case annotations.Defer:
			out.DefaultDeferred = !v.Off
		case string:
			switch d.parsed.Directive.Name {
			case "namespace":
				out.DefaultNamespace = v
			case "category":
				out.DefaultCategory = v
			case "description":
				out.Description = strings.TrimSpace(out.Description + " " + v)
			}
		case annotations.Callers:
			out.DefaultCallers = model.Callers(v)
		case []annotations.LintSetting:
			out.Lint = lintSettings(v)
		}
	}

	for _, o := range owners {
		var t *model.Tool
		if o.fn != nil {
			t = p.funcTool(o)
			if t != nil {
				p.checkServe(o, t)
			}
		} else {
			t = p.clientTool(o)
		}
		if t == nil {
			continue
		}
		if len(t.Tags) == 0 && len(out.DefaultTags) > 0 {
			t.Tags = slices.Clone(out.DefaultTags)
		}
		if !o.said("defer") {
			t.Deferred = out.DefaultDeferred
		}
		if t.Namespace == "" {
			t.Namespace = out.DefaultNamespace
		}
		if t.Category == "" {
			t.Category = out.DefaultCategory
		}
		if t.Callers == (model.Callers{}) {
			t.Callers = out.DefaultCallers
		}
		t.PackageDescription = out.Description
		out.Tools = append(out.Tools, t)
	}
	if len(out.Tools) == 0 {
		// A package that runs toolgen itself asked for tools: its handlers' forgotten
		// directives are the likely reason it has none.
		if p.generatesTools() {
			p.noteUntaggedHandlers(owners)
		}
		return nil
	}
	p.noteUntaggedHandlers(owners)
	slices.SortStableFunc(out.Tools, func(a, b *model.Tool) int {
		return cmp.Or(strings.Compare(a.Name, b.Name), a.Pos.Compare(b.Pos))
	})
	return out
}

// noteUntaggedHandlers notes each exported func or method of a package with tools that has a
// handler's signature (ctx and an args struct in, a result and an error out) but no //tool:
// line: a forgotten directive would otherwise leave the tool out without a word.
func (p *parser) noteUntaggedHandlers(tools []*docOwner) {
	isTool := map[*ast.FuncDecl]bool{}
	for _, o := range tools {
		if o.fn != nil {
			isTool[o.fn] = true
		}
	}
	for _, f := range p.pkg.Syntax {
		if ast.IsGenerated(f) {
			continue // generated code (a toolgen -client package's methods) forgot no directive
		}
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || isTool[fd] || !fd.Name.IsExported() {
				continue
			}
			fn, _ := p.pkg.TypesInfo.Defs[fd.Name].(*types.Func)
			if fn == nil || !handlerShaped(fn.Type().(*types.Signature)) || funcAdapter(fn) {
				continue
			}
			p.diags.Notef(p.l.Position(fd.Name.Pos()), "%s has a tool handler's signature but no //tool: directive, so it is not a tool", fd.Name.Name).
				WithHint("to make it one, add //tool:name %s to its doc comment", SnakeCase(fd.Name.Name))
		}
	}
}

// generatesTools reports whether a file of the package has a //go:generate line running
// toolgen.
func (p *parser) generatesTools() bool {
	for _, f := range p.pkg.Syntax {
		for _, g := range f.Comments {
			for _, c := range g.List {
				if strings.HasPrefix(c.Text, "//go:generate ") && strings.Contains(c.Text, "toolgen") {
					return true
				}
			}
		}
	}
	return false
}

// funcAdapter reports whether fn is a method of a func type (type AnswererFunc func(…) with
// its Answer method): the way Go adapts a function to an interface, never a forgotten tool.
func funcAdapter(fn *types.Func) bool {
	recv := fn.Type().(*types.Signature).Recv()
	if recv == nil {
		return false
	}
	t := recv.Type()
	if ptr, ok := types.Unalias(t).(*types.Pointer); ok {
		t = ptr.Elem()
	}
	_, isFunc := t.Underlying().(*types.Signature)
	return isFunc
}

// handlerShaped reports whether sig is func(context.Context, T or *T) (R, error) or error, T
// a struct: the form of a tool handler, rare in code that is not one.
func handlerShaped(sig *types.Signature) bool {
	params, results := sig.Params(), sig.Results()
	if params.Len() != 2 || !isContext(params.At(0).Type()) || results.Len() < 1 || results.Len() > 2 ||
		!isError(results.At(results.Len()-1).Type()) {
		return false
	}
	at := params.At(1).Type()
	if ptr, ok := types.Unalias(at).(*types.Pointer); ok {
		at = ptr.Elem()
	}
	_, isStruct := at.Underlying().(*types.Struct)
	return isStruct
}

// scanFile reads every comment of f. Each comment group is classified by what it documents, so
// that a directive in the wrong place (floating, in a body, on a field) is reported as
// misplaced by the annotations package rather than ignored.
func (p *parser) scanFile(f *ast.File) ([]*docOwner, []directive) {
	targets := map[*ast.CommentGroup]annotations.Target{}
	owners := map[*ast.CommentGroup]*docOwner{}
	var ordered []*docOwner
	own := func(cg *ast.CommentGroup, target annotations.Target, o *docOwner) {
		if cg == nil {
			return
		}
		targets[cg] = target
		o.doc = cg
		owners[cg] = o
		ordered = append(ordered, o)
	}
	if f.Doc != nil {
		targets[f.Doc] = annotations.OnPackage
	}
	for _, d := range f.Decls {
		switch d := d.(type) {
		case *ast.FuncDecl:
			target := annotations.OnFunc
			if d.Recv != nil {
				target = annotations.OnMethod
			}
			own(d.Doc, target, &docOwner{fn: d})
		case *ast.GenDecl:
			if d.Tok != token.TYPE {
				continue
			}
			for _, s := range d.Specs {
				ts := s.(*ast.TypeSpec)
				own(typeDoc(d, ts), annotations.OnType, &docOwner{typ: ts})
			}
		}
	}

	var pkgDirs []directive
	for _, cg := range f.Comments {
		target := targets[cg]
		for _, c := range cg.List {
			parsed, problems := annotations.ParseComment(c.Text, target)
			at := p.commentOffsets(c)
			for _, pr := range problems {
				p.problem(at(pr.Offset), pr)
			}
			o := owners[cg]
			if o != nil && strings.HasPrefix(c.Text, "//tool:") {
				o.marked = true
			}
			if parsed == nil || parsed.Directive == nil {
				continue
			}
			d := directive{parsed: parsed, pos: at(0), at: at}
			switch {
			case o != nil:
				o.dirs = append(o.dirs, d)
			case target == annotations.OnPackage:
				pkgDirs = append(pkgDirs, d)
			}
		}
	}
	var marked []*docOwner
	for _, o := range ordered {
		if o.marked {
			marked = append(marked, o)
		}
	}
	return marked, pkgDirs
}

// commentOffsets maps a byte offset in c.Text to a position. Block comments may span lines.
func (p *parser) commentOffsets(c *ast.Comment) func(int) model.Position {
	start := p.l.Position(c.Slash)
	return func(off int) model.Position {
		return advance(start, c.Text, off)
	}
}

// advance moves pos over the first off bytes of text, which starts at pos.
func advance(pos model.Position, text string, off int) model.Position {
	off = min(max(off, 0), len(text))
	for i := 0; i < off; i++ {
		if text[i] == '\n' {
			pos.Line++
			pos.Column = 1
		} else {
			pos.Column++
		}
	}
	return pos
}

// lintSettings turns a //tool:lint value into rule → on.
func lintSettings(v any) map[string]bool {
	settings, _ := v.([]annotations.LintSetting)
	if len(settings) == 0 {
		return nil
	}
	m := make(map[string]bool, len(settings))
	for _, s := range settings {
		m[s.Rule] = s.On
	}
	return m
}

func (p *parser) problem(pos model.Position, pr annotations.Problem) {
	d := p.diags.Errorf(pos, "%s", pr.Message)
	if pr.Hint != "" {
		d.WithHint("%s", pr.Hint)
	}
}

// counted returns the directives of dirs that count: every repeatable one and the first of each
// other, even when that first one had problems. It reports each repetition of a directive that
// may appear once, pointing back at the first.
func (p *parser) counted(dirs []directive) []directive {
	first := map[string]model.Position{}
	var out []directive
	for _, d := range dirs {
		name := d.parsed.Directive.Name
		if !d.parsed.Directive.Repeatable {
			if prev, seen := first[name]; seen {
				p.diags.Errorf(d.pos, "duplicate //tool:%s", name).
					WithHint("previous //tool:%s at %s; keep one", name, shortPos(prev))
				continue
			}
			first[name] = d.pos
		}
		out = append(out, d)
	}
	return out
}

// shortPos names a position by its base file name: duplicates sit in the same doc comment,
// and an absolute path in a hint would make the output depend on the machine.
func shortPos(pos model.Position) string {
	pos.Filename = filepath.Base(pos.Filename)
	return pos.String()
}

// newTool starts a tool from the directives of o: everything a doc comment says, whatever the
// kind of declaration. The name is derived from the Go name unless //tool:name gives one; the
// check phase checks a derived name (see check.Run).
func (p *parser) newTool(o *docOwner, goName string, namePos token.Pos) *model.Tool {
	t := &model.Tool{Pos: p.l.Position(namePos), Name: SnakeCase(goName)}
	var description []string
	seenMeta := map[string]model.Position{}
	for _, d := range p.counted(o.dirs) {
		v := d.parsed.Value
		if v == nil {
			continue // the line had problems, which the annotations package reported
		}
		switch d.parsed.Directive.Name {
		case "name":
			t.Name = asString(v)
		case "title":
			t.Title = asString(v)
		case "description":
			description = append(description, asString(v))
		case "tags":
			t.Tags = asStrings(v)
		case "category":
			t.Category = asString(v)
		case "icon":
			if ic, ok := v.(annotations.Icon); ok {
				if mi, ok := p.icon(d, ic); ok {
					t.Icons = append(t.Icons, mi)
				}
			}
		case "defer":
			if dv, ok := v.(annotations.Defer); ok {
				t.Deferred = !dv.Off
			}
		case "namespace":
			t.Namespace = asString(v)
		case "callers":
			if c, ok := v.(annotations.Callers); ok {
				t.Callers = model.Callers(c)
			}
		case "scopes":
			t.Scopes = asStrings(v)
		case "timeout":
			if tv, ok := v.(annotations.Timeout); ok {
				t.Timeout, t.NoTimeout = tv.Duration, tv.None
			}
		case "retry":
			if r, ok := v.(annotations.Retry); ok {
				retry := model.Retry(r)
				t.Retry = &retry
			}
		case "confirm":
			if c, ok := v.(annotations.Confirm); ok {
				t.Confirm, t.ConfirmReason = true, c.Reason
			}
		case "risk":
			t.Risk = asString(v)
		case "hints":
			if h, ok := v.(annotations.Hints); ok {
				t.Hints = model.Hints(h)
			}
		case "example":
			if e, ok := v.(annotations.Example); ok {
				t.Examples = append(t.Examples, model.Example{Pos: d.at(e.JSONOffset),
					Scenario: e.Scenario, Args: e.JSON, Expected: e.Expected})
			}
		case "trigger":
			t.Triggers = append(t.Triggers, asString(v))
		case "prerequisite":
			if pr, ok := v.(annotations.Prerequisite); ok {
				t.Prerequisites = append(t.Prerequisites, model.Prerequisite{Condition: pr.Condition,
					Check: pr.Check, CheckPos: d.at(pr.CheckOffset), Else: pr.Else})
			}
		case "workflow":
			if st, ok := v.(annotations.WorkflowStep); ok {
				t.Workflow = append(t.Workflow, model.WorkflowStep{Name: st.Name,
					Tool: st.Tool, ToolPos: d.at(st.ToolOffset), Condition: st.Condition})
			}
		case "lint":
			t.Lint = lintSettings(v)
		case "warning":
			t.Warnings = append(t.Warnings, asString(v))
		case "related":
			if r, ok := v.(annotations.Related); ok {
				t.Related = append(t.Related, model.Related{Pos: d.at(d.parsed.ArgsOffset),
					Name: r.Name, Relation: r.Relation})
			}
		case "filters":
			t.Filters = asStrings(v)
		case "meta":
			m, ok := v.(annotations.Meta)
			if !ok {
				continue
			}
			if prev, dup := seenMeta[m.Key]; dup {
				p.diags.Errorf(d.at(d.parsed.ArgsOffset), "duplicate //tool:meta key %q", m.Key).
					WithHint("previous //tool:meta %s at %s; keys are unique per tool", m.Key, shortPos(prev))
				continue
			}
			seenMeta[m.Key] = d.at(d.parsed.ArgsOffset)
			t.Meta = append(t.Meta, model.Meta(m))
		case "maxresult":
			if n, ok := v.(int64); ok {
				t.MaxResult = n
			}
		case "maxargs":
			if n, ok := v.(int64); ok {
				t.MaxArgs = n
			}
		case "maxcalls":
			if n, ok := v.(int); ok {
				t.MaxCalls = n
			}
		case "modelretries":
			if n, ok := v.(int); ok {
				t.ModelRetries = n
			}
		case "sequential":
			t.Sequential = true
		case "task":
			if tv, ok := v.(annotations.Task); ok {
				t.Task = model.TaskOptional
				if tv.Required {
					t.Task = model.TaskRequired
				}
			}
		case "prompt":
			t.Serve = model.ServePrompt
		case "resource":
			if r, ok := v.(annotations.Resource); ok {
				t.Serve, t.ResourceURI, t.ResourceMIME = model.ServeResource, r.URI, r.MIMEType
			}
		case "defs":
			// read where the type is converted (convertNamed), for its every use
		case "client":
			// clientTool sets Client: a tool is a client tool by the declaration it is on.
		}
	}
	// A missing description is an error, which the check phase reports with the others.
	t.Description, t.Detail = describe(o.doc, goName, description)
	return t
}

func asString(v any) string {
	s, _ := v.(string)
	return s
}

func asStrings(v any) []string {
	s, _ := v.([]string)
	return slices.Clone(s)
}

// clientTool builds a client-side tool from a type whose doc holds //tool:client, even a
// //tool:client line with problems (reported there), so that the tool's other errors are
// reported too.
func (p *parser) clientTool(o *docOwner) *model.Tool {
	ts := o.typ
	p.checkDefs(o)
	if !slices.ContainsFunc(o.dirs, func(d directive) bool { return d.parsed.Directive.Name == "client" }) {
		if len(o.dirs) > 0 && !onlyDefs(o.dirs) {
			p.diags.Errorf(o.dirs[0].pos, "type %s has //tool: directives but no //tool:client", ts.Name.Name).
				WithHint("add //tool:client to declare a client-side tool with these arguments, or move the directives to the handler func")
		}
		return nil
	}
	t := p.newTool(o, ts.Name.Name, ts.Name.Pos())
	t.Client = true
	obj, _ := p.pkg.TypesInfo.Defs[ts.Name].(*types.TypeName)
	if obj == nil {
		return t
	}
	if ts.TypeParams != nil {
		p.diags.Errorf(t.Pos, "client tool type %s must not be generic", ts.Name.Name).
			WithHint("declare a non-generic struct type, e.g. type %sArgs struct{ ... }", ts.Name.Name)
		return t
	}
	if _, ok := obj.Type().Underlying().(*types.Struct); !ok {
		p.diags.Errorf(t.Pos, "client tool type %s must be a struct type, found %s", ts.Name.Name, p.typeString(obj.Type().Underlying())).
			WithHint("the arguments of a tool are a JSON object: declare a struct")
		return t
	}
	t.Args = p.convert(obj.Type(), &site{root: ts.Name.Name, pos: t.Pos})
	return t
}

// checkDefs refuses //tool:defs where the schema phase would ignore it: only a named struct
// type's schema goes under $defs, and an alias has no declaration of its own to mark.
func (p *parser) checkDefs(o *docOwner) {
	i := slices.IndexFunc(o.dirs, func(d directive) bool {
		return d.parsed != nil && d.parsed.Directive != nil && d.parsed.Directive.Name == "defs"
	})
	if i < 0 {
		return
	}
	ts, pos := o.typ, o.dirs[i].pos
	obj, _ := p.pkg.TypesInfo.Defs[ts.Name].(*types.TypeName)
	switch {
	case obj == nil:
	case ts.Assign.IsValid():
		p.diags.Errorf(pos, "//tool:defs on alias %s, which has no schema of its own", ts.Name.Name).
			WithHint("put //tool:defs on the declaration of %s", p.typeString(types.Unalias(obj.Type())))
	case !isStruct(obj.Type()):
		p.diags.Errorf(pos, "//tool:defs on %s, a %s type: only a struct type's schema goes under $defs", ts.Name.Name, p.typeString(obj.Type().Underlying())).
			WithHint("remove //tool:defs; a schema that is not an object is written where it is used")
	}
}

func isStruct(t types.Type) bool {
	_, ok := t.Underlying().(*types.Struct)
	return ok
}

// typeString spells t for messages: types of this package unqualified, others by package name.
func (p *parser) typeString(t types.Type) string {
	return types.TypeString(t, func(other *types.Package) string {
		if other == p.pkg.Types {
			return ""
		}
		return other.Name()
	})
}

// errorf records an error with an optional hint.
func (p *parser) errorf(pos model.Position, hint string, format string, args ...any) {
	d := p.diags.Errorf(pos, format, args...)
	if hint != "" {
		d.WithHint("%s", hint)
	}
}

// said reports whether o's doc comment holds the directive name, valid or not: a tool that
// says anything of its own is not given the package's default.
func (o *docOwner) said(name string) bool {
	for _, d := range o.dirs {
		if d.parsed != nil && d.parsed.Directive != nil && d.parsed.Directive.Name == name {
			return true
		}
	}
	return false
}
