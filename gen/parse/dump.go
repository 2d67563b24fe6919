package parse

import (
	"fmt"
	"io"
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// Dump writes the model of p in a stable, line-oriented text form: a debugging aid that
// separates parse bugs from schema and emit bugs, printed by toolgen -debug-model (whose test
// checks it) and by this package's tests when they fail.
// Named types are written in full at their first use and by name afterwards, so recursive
// types print finitely. Positions are written as base file name:line:col.
func Dump(w io.Writer, p *model.Package) {
	if p == nil {
		fmt.Fprintln(w, "no tools")
		return
	}
	d := &dumper{w: w, seen: map[*model.Type]bool{}}
	d.line(0, "package %s %s", p.Name, p.Path)
	if len(p.DefaultTags) > 0 {
		d.line(1, "default tags %s", strings.Join(p.DefaultTags, ","))
	}
	for _, t := range p.Tools {
		d.tool(t)
	}
}

type dumper struct {
	w    io.Writer
	seen map[*model.Type]bool
}

func (d *dumper) line(indent int, format string, args ...any) {
	fmt.Fprintf(d.w, "%s%s\n", strings.Repeat("  ", indent), fmt.Sprintf(format, args...))
}

func shortPosition(p model.Position) string {
	if !p.IsValid() {
		return "-"
	}
	return shortPos(p)
}

func (d *dumper) tool(t *model.Tool) {
	d.line(0, "tool %s @%s", t.Name, shortPosition(t.Pos))
	h := t.Handler
	if t.Client {
		d.line(1, "client")
	} else {
		recv := ""
		if h.Receiver != nil {
			star := ""
			if h.Receiver.Pointer {
				star = "*"
			}
			recv = "(" + star + h.Receiver.TypeName + ")."
		}
		d.line(1, "handler %s%s context=%t args=%s returns=%s validate=%t", recv, h.Name, h.Context,
			[...]string{"none", "value", "pointer"}[h.Args], [...]string{"none", "text", "result", "structured"}[h.Returns], h.Validate)
	}
	str := func(name, v string) {
		if v != "" {
			d.line(1, "%s %q", name, v)
		}
	}
	list := func(name string, vs []string) {
		if len(vs) > 0 {
			d.line(1, "%s %q", name, vs)
		}
	}
	str("title", t.Title)
	str("description", t.Description)
	str("detail", t.Detail)
	list("tags", t.Tags)
	str("category", t.Category)
	for _, ic := range t.Icons {
		d.line(1, "icon %q mime=%q sizes=%q theme=%q", ic.Src, ic.MIMEType, ic.Sizes, ic.Theme)
	}
	if t.Timeout != 0 || t.NoTimeout {
		d.line(1, "timeout %s none=%t", t.Timeout, t.NoTimeout)
	}
	if r := t.Retry; r != nil {
		d.line(1, "retry max=%d delay=%s backoff=%g maxdelay=%s", r.Max, r.Delay, r.Backoff, r.MaxDelay)
	}
	if t.Confirm {
		d.line(1, "confirm %q", t.ConfirmReason)
	}
	str("risk", t.Risk)
	if t.Hints != (model.Hints{}) {
		d.line(1, "hints %+v", t.Hints)
	}
	for _, e := range t.Examples {
		d.line(1, "example %q %s => %q @%s", e.Scenario, e.Args, e.Expected, shortPosition(e.Pos))
	}
	list("triggers", t.Triggers)
	for _, pr := range t.Prerequisites {
		d.line(1, "prerequisite %q check %q else %q", pr.Condition, pr.Check, pr.Else)
	}
	for _, st := range t.Workflow {
		d.line(1, "workflow %q tool %q when %q", st.Name, st.Tool, st.Condition)
	}
	list("warnings", t.Warnings)
	for _, r := range t.Related {
		d.line(1, "related %s %q", r.Name, r.Relation)
	}
	list("filters", t.Filters)
	for _, m := range t.Meta {
		d.line(1, "meta %s=%q", m.Key, m.Value)
	}
	if t.MaxResult != 0 || t.MaxCalls != 0 || t.ModelRetries != 0 || t.Sequential {
		d.line(1, "maxresult=%d maxcalls=%d modelretries=%d sequential=%t", t.MaxResult, t.MaxCalls, t.ModelRetries, t.Sequential)
	}
	if t.Deferred || t.Namespace != "" || t.Callers != (model.Callers{}) {
		d.line(1, "deferred=%t namespace=%q callers direct=%t code=%t", t.Deferred, t.Namespace, t.Callers.Direct, t.Callers.Code)
	}
	if t.Task != model.TaskNone {
		d.line(1, "task=%d", t.Task)
	}
	if t.MaxArgs != 0 {
		d.line(1, "maxargs=%d", t.MaxArgs)
	}
	list("scopes", t.Scopes)
	if t.Args != nil {
		d.typ(1, "args", t.Args)
	}
	if t.Result != nil {
		d.typ(1, "result", t.Result)
	}
}

// typ writes a type; label prefixes the first line.
func (d *dumper) typ(indent int, label string, t *model.Type) {
	if t == nil {
		d.line(indent, "%s <nil>", label)
		return
	}
	head := label + " " + t.Kind.String()
	if t.Named != nil {
		head += " " + dumpName(t.Named)
		if d.seen[t] {
			d.line(indent, "%s (see above)", head)
			return
		}
		d.seen[t] = true
	}
	switch t.Kind {
	case model.KindInt, model.KindUint, model.KindFloat:
		head += fmt.Sprintf(" bits=%d", t.Bits)
	case model.KindArray:
		head += fmt.Sprintf(" len=%d", t.Len)
	case model.KindText:
		head += fmt.Sprintf(" pointer=%t marshal=%t", t.TextPointer, t.TextMarshal)
	}
	if t.Doc != "" {
		head += fmt.Sprintf(" doc=%q", t.Doc)
	}
	d.line(indent, "%s", head)
	for _, e := range t.Enum {
		if t.Kind == model.KindString {
			d.line(indent+1, "const %s %q doc=%q", e.GoName, e.String, e.Doc)
		} else {
			d.line(indent+1, "const %s %d doc=%q", e.GoName, e.Int, e.Doc)
		}
	}
	if t.Key != nil {
		d.typ(indent+1, "key", t.Key)
	}
	if t.Elem != nil {
		d.typ(indent+1, "elem", t.Elem)
	}
	for _, f := range t.Fields {
		d.field(indent+1, f)
	}
}

func dumpName(n *model.GoName) string {
	s := n.Path + "." + n.Name
	if len(n.TypeArgs) > 0 {
		var args []string
		for _, a := range n.TypeArgs {
			args = append(args, modelTypeString(a))
		}
		s += "[" + strings.Join(args, ",") + "]"
	}
	return s
}

func (d *dumper) field(indent int, f *model.Field) {
	var flags []string
	for _, fl := range []struct {
		on   bool
		name string
	}{{f.Required, "required"}, {f.Nullable, "nullable"}, {f.OmitEmpty, "omitempty"}, {f.OmitZero, "omitzero"}} {
		if fl.on {
			flags = append(flags, fl.name)
		}
	}
	var via []string
	for _, e := range f.Embedded {
		star := ""
		if e.Pointer {
			star = "*"
		}
		via = append(via, star+e.GoName)
	}
	head := fmt.Sprintf("field %s (%s)", f.JSONName, f.GoName)
	if len(via) > 0 {
		head += " via " + strings.Join(via, ".")
	}
	if len(flags) > 0 {
		head += " " + strings.Join(flags, ",")
	}
	if f.Description != "" {
		head += fmt.Sprintf(" desc=%q", f.Description)
	}
	d.line(indent, "%s @%s", head, shortPosition(f.Pos))
	if c := dumpConstraints(&f.Constraints); c != "" {
		d.line(indent+1, "tags %s", c)
	}
	d.typ(indent+1, "type", f.Type)
}

// dumpConstraints writes the keywords that are set, in the order of model.Constraints, with
// item keywords in brackets.
func dumpConstraints(c *model.Constraints) string {
	if c.IsZero() {
		return ""
	}
	var parts []string
	num := func(name string, n *model.Number) {
		if n != nil {
			parts = append(parts, name+"="+n.Text)
		}
	}
	integer := func(name string, n *int) {
		if n != nil {
			parts = append(parts, fmt.Sprintf("%s=%d", name, *n))
		}
	}
	num("minimum", c.Minimum)
	num("maximum", c.Maximum)
	num("exclusiveMinimum", c.ExclusiveMinimum)
	num("exclusiveMaximum", c.ExclusiveMaximum)
	num("multipleOf", c.MultipleOf)
	integer("minLength", c.MinLength)
	integer("maxLength", c.MaxLength)
	if c.Pattern != "" {
		parts = append(parts, "pattern="+c.Pattern)
	}
	if c.Format != "" {
		parts = append(parts, "format="+c.Format)
	}
	integer("minItems", c.MinItems)
	integer("maxItems", c.MaxItems)
	if c.UniqueItems {
		parts = append(parts, "uniqueItems")
	}
	integer("minProperties", c.MinProperties)
	integer("maxProperties", c.MaxProperties)
	if len(c.Enum) > 0 {
		var lits []string
		for _, l := range c.Enum {
			lits = append(lits, l.JSON)
		}
		parts = append(parts, "enum="+strings.Join(lits, "|"))
	}
	if c.Default != nil {
		parts = append(parts, "default="+c.Default.JSON)
	}
	if c.Title != "" {
		parts = append(parts, fmt.Sprintf("title=%q", c.Title))
	}
	for _, e := range c.Examples {
		parts = append(parts, "example="+e.JSON)
	}
	if c.Deprecated {
		parts = append(parts, "deprecated")
	}
	if !c.Items.IsZero() {
		parts = append(parts, "items["+dumpConstraints(c.Items)+"]")
	}
	return strings.Join(parts, " ")
}
