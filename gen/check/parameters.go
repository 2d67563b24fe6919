package check

import (
	"strings"

	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
)

// checkParameters warns about every struct field reachable from some tool's args that has no
// description. Each field is reported once, however many tools or paths reach its type.
func checkParameters(tools []*model.Tool, diags *diag.List) {
	w := parameterWalker{seen: map[*model.Type]bool{}, reported: map[*model.Field]bool{}, diags: diags}
	for _, t := range tools {
		w.walk(t.Args)
	}
}

type parameterWalker struct {
	seen     map[*model.Type]bool // types already walked (also ends recursion)
	reported map[*model.Field]bool
	diags    *diag.List
}

func (w *parameterWalker) walk(t *model.Type) {
	if t == nil || w.seen[t] {
		return
	}
	w.seen[t] = true
	switch t.Kind {
	case model.KindStruct:
		for _, f := range t.Fields {
			if f == nil {
				continue
			}
			if strings.TrimSpace(f.Description) == "" && !w.reported[f] {
				w.reported[f] = true
				w.diags.Warnf(f.Pos, "parameter %q has no description", f.JSONName).
					WithHint("the model sees only the name: add a doc comment or a line comment to field %s", f.GoName)
			}
			w.walk(f.Type)
		}
	case model.KindSlice, model.KindArray, model.KindPointer, model.KindMap:
		w.walk(t.Elem)
	}
}
