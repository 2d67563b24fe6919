package check

import (
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
)

// parameterWalker applies the parameter rules (parameter-description, optional-default) to
// every struct field reachable from a tool's args. Each field is reported once per rule,
// however many tools or paths reach its type; a tool whose //tool:lint turns a rule off does
// not report its fields for it.
type parameterWalker struct {
	seen     map[walked]bool // types already walked with these rules (also ends recursion)
	reported map[reportKey]bool
	diags    *diag.List
	rules    rules
}

type rules struct{ description, optionalDefault bool }

type walked struct {
	t     *model.Type
	rules rules
}

type reportKey struct {
	f    *model.Field
	rule string
}

func (w *parameterWalker) tool(p *model.Package, t *model.Tool) {
	w.rules = rules{
		description:     model.LintOn(p, t, ruleParameterDescription),
		optionalDefault: model.LintOn(p, t, ruleOptionalDefault),
	}
	w.walk(t.Args)
}

func (w *parameterWalker) walk(t *model.Type) {
	key := walked{t, w.rules}
	if t == nil || w.seen[key] {
		return
	}
	w.seen[key] = true
	switch t.Kind {
	case model.KindStruct:
		for _, f := range t.Fields {
			if f == nil {
				continue
			}
			if w.rules.description && strings.TrimSpace(f.Description) == "" && w.first(f, ruleParameterDescription) {
				w.diags.Warnf(f.Pos, "parameter %q has no description", f.JSONName).
					WithHint("the model sees only the name: add a doc comment or a line comment to field %s%s", f.GoName, offWith(ruleParameterDescription))
			}
			if w.rules.optionalDefault && !f.Required && scalar(f.Type) && f.Constraints.Default == nil && !f.DefaultWritten && w.first(f, ruleOptionalDefault) {
				example := "default=VALUE"
				if f.Type.Kind == model.KindString && len(f.Type.Enum) == 0 {
					example = "default=VALUE (default='' when empty means none)"
				}
				pointer := fmt.Sprintf(", or make field %s a pointer", f.GoName)
				if f.Header != "" {
					pointer = "" // a header field may not be a pointer (tool:"header=NAME")
				}
				w.diags.Warnf(f.Pos, "optional parameter %q has no default", f.JSONName).
					WithHint("say what leaving it out means with %s in its tool tag%s%s", example, pointer, offWith(ruleOptionalDefault))
			}
			w.walk(f.Type)
		}
	case model.KindSlice, model.KindArray, model.KindPointer, model.KindMap:
		w.walk(t.Elem)
	}
}

// first reports whether the field has not been reported for rule yet, and marks it.
func (w *parameterWalker) first(f *model.Field, rule string) bool {
	k := reportKey{f, rule}
	if w.reported[k] {
		return false
	}
	w.reported[k] = true
	return true
}

// scalar reports whether a value of t has an obvious default to state: a string, number,
// boolean, enum, time or duration (not a pointer, whose absence is nil, nor a container).
func scalar(t *model.Type) bool {
	switch t.Kind {
	case model.KindString, model.KindBool, model.KindInt, model.KindUint, model.KindFloat,
		model.KindTime, model.KindDuration, model.KindText:
		return true
	}
	return false
}
