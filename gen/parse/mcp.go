package parse

import (
	"go/ast"
	"regexp"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// onlyDefs reports whether every directive of a type's doc is //tool:defs: such a type is
// not a client tool, only a schema shape.
func onlyDefs(dirs []directive) bool {
	for _, d := range dirs {
		if d.parsed == nil || d.parsed.Directive == nil || d.parsed.Directive.Name != "defs" {
			return false
		}
	}
	return true
}

// hasDefsDirective reports whether a type's doc comment holds //tool:defs. The line itself
// was checked where the type is declared, if in a package toolgen parses; in another
// package, only the exact directive counts.
func hasDefsDirective(doc *ast.CommentGroup) bool {
	if doc == nil {
		return false
	}
	return slices.ContainsFunc(doc.List, func(c *ast.Comment) bool { return strings.TrimSpace(c.Text) == "//tool:defs" })
}

// templateVariable matches one RFC 6570 expression's variables: {id}, {+path}, {?q,page}.
var templateVariable = regexp.MustCompile(`\{[+#./;?&]?([^}]*)\}`)

// checkServe checks a prompt or resource handler against what MCP can send it: a template's
// variables are fields of its args, and a required field is a variable (a resource without
// variables takes no required argument).
func (p *parser) checkServe(o *docOwner, t *model.Tool) {
	if o.said("prompt") && o.said("resource") {
		p.errorf(t.Pos, "serve the handler as a prompt or as a resource, not both", "//tool:prompt and //tool:resource on %s", t.Handler.Name)
		return
	}
	if t.Task != model.TaskNone && t.Serve != model.ServeTool {
		p.errorf(t.Pos, "drop //tool:task: only tools/call runs as an MCP task", "//tool:task on %s, which is served as a prompt or a resource", t.Handler.Name)
	}
	for _, d := range o.dirs {
		if d.parsed.Directive.Name == "scopes" && t.Serve != model.ServeTool {
			// Prompts and resources are listed to every caller: scopes there would be ignored.
			p.errorf(d.pos, "serve it as a tool, or leave //tool:scopes out: WithPrompts and WithResources list to every caller",
				"//tool:scopes on a //tool:%s: only tools are shown by scope", t.Serve)
		}
	}
	if t.Serve != model.ServeResource {
		return
	}
	fields := map[string]*model.Field{}
	if t.Args != nil {
		for _, f := range t.Args.Fields {
			fields[f.JSONName] = f
		}
	}
	vars := map[string]bool{}
	for _, m := range templateVariable.FindAllStringSubmatch(t.ResourceURI, -1) {
		for _, v := range strings.Split(m[1], ",") {
			v = strings.TrimSuffix(strings.SplitN(v, ":", 2)[0], "*")
			vars[v] = true
			if fields[v] == nil {
				names := make([]string, 0, len(fields))
				for n := range fields {
					names = append(names, n)
				}
				slices.Sort(names)
				p.errorf(t.Pos, "add a field with JSON name "+v+" to the args struct, or rename the variable (fields: "+strings.Join(names, ", ")+")",
					"resource template %s has variable {%s}, which is no field of its arguments", t.ResourceURI, v)
			}
		}
	}
	if t.Args == nil {
		return
	}
	for _, f := range t.Args.Fields {
		if f.Required && !vars[f.JSONName] {
			p.errorf(f.Pos, "make the field optional (a pointer, or tool:\"optional\"), or add {"+f.JSONName+"} to the URI",
				"field %s is required, but resource %s has no variable {%s} to fill it", f.GoName, t.ResourceURI, f.JSONName)
		}
	}
}
