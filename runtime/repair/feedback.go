package repair

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/runtime"
)

// maxFeedbackArgs bounds the arguments Annotate shows; larger ones get the plain problem
// list, which is capped on its own.
const maxFeedbackArgs = 16 << 10

// Annotate is a runtime.ArgsFeedback (runtime.WithArgsFeedback) that shows the model its own
// arguments with every problem written next to the value it is about, as typia's LLM
// feedback does, and with the schema of the wrong property where the schema has one:
//
//	invalid arguments for get_weather; your arguments, each problem marked with ❌:
//	```json
//	{
//	  "citty": "Tokyo", // ❌ unknown property, did you mean "city"?
//	  "days": 9, // ❌ must be at most 7, got 9 (schema: {"maximum":7,"minimum":0,"type":"integer"})
//	  "city": undefined // ❌ required property is missing (schema: {"minLength":1,"type":"string"})
//	}
//	```
//	Correct the arguments and call get_weather again.
//
// A problem whose place the arguments do not have (arguments that are not JSON, a value
// inside a string) is listed after them. Arguments over 16 KiB get the plain list.
func Annotate(tool *runtime.Tool, args []byte, err *runtime.ArgsError) string {
	retry := "\nCorrect the arguments and call " + tool.Name + " again."
	if len(args) > maxFeedbackArgs {
		return err.Error() + retry // checked before parsing, so large arguments cost no parse
	}
	doc, perr := parse(args)
	if perr != nil || doc.kind != kindObject {
		return err.Error() + retry
	}
	root, _ := rootSchema(tool.InputSchema)
	a := &annotator{byPath: make(map[string][]runtime.Problem), root: root}
	for _, p := range err.Problems {
		a.byPath[p.Path] = append(a.byPath[p.Path], p)
	}
	var b strings.Builder
	b.WriteString("invalid arguments for " + tool.Name + "; your arguments, each problem marked with ❌:\n```json\n")
	a.value(&b, doc, "", 0, "")
	b.WriteString("\n```")
	var rest []runtime.Problem
	for _, p := range err.Problems {
		if _, shown := a.used[p.Path]; !shown {
			rest = append(rest, p)
		}
	}
	if len(rest) > 0 {
		b.WriteString("\nAlso:")
		for _, p := range rest {
			b.WriteString("\n- ")
			b.WriteString(oneLine(p.String()))
		}
	}
	b.WriteString(retry)
	return b.String()
}

type annotator struct {
	byPath map[string][]runtime.Problem
	used   map[string]struct{}
	root   schema
}

// comment returns the marks of the problems at path, and marks them shown.
func (a *annotator) comment(path string) string {
	ps := a.byPath[path]
	if len(ps) == 0 {
		return ""
	}
	if a.used == nil {
		a.used = make(map[string]struct{})
	}
	a.used[path] = struct{}{}
	msgs := make([]string, len(ps))
	for i, p := range ps {
		msgs[i] = oneLine(p.Message)
	}
	c := " // ❌ " + strings.Join(msgs, "; ")
	if frag := a.fragment(path, ps); frag != "" {
		c += " (schema: " + frag + ")"
	}
	return c
}

// fragment is the schema of the value at path, without its description, when the problem
// is about the value (not an unknown property, which has no schema).
func (a *annotator) fragment(path string, ps []runtime.Problem) string {
	if a.root.node == nil || path == "" {
		return ""
	}
	for _, p := range ps {
		if strings.HasPrefix(p.Message, "unknown property") {
			return ""
		}
	}
	s, ok := a.root.at(path)
	if !ok {
		return ""
	}
	m := maps.Clone(s.node)
	for _, k := range []string{"description", "title", "examples", "$schema", "$defs", "properties", "items", "required", "additionalProperties"} {
		delete(m, k)
	}
	if len(m) == 0 {
		return ""
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if enc.Encode(m) != nil {
		return ""
	}
	return shortenTo(strings.TrimSpace(b.String()), 300)
}

// value writes v at the given depth; after is what follows it on its line (a comma).
func (a *annotator) value(b *strings.Builder, v *value, path string, depth int, after string) {
	indent := strings.Repeat("  ", depth)
	switch v.kind {
	case kindObject:
		missing := a.missingKeys(v, path)
		if len(v.keys)+len(missing) == 0 {
			b.WriteString("{}" + after + a.comment(path))
			return
		}
		b.WriteString("{" + a.comment(path))
		n := len(v.keys) + len(missing)
		for i := range n {
			comma := ""
			if i < n-1 {
				comma = ","
			}
			b.WriteString("\n" + indent + "  ")
			var key string
			if i < len(v.keys) {
				key = v.keys[i]
			} else {
				key = missing[i-len(v.keys)]
			}
			var kb bytes.Buffer
			writeString(&kb, key)
			b.WriteString(kb.String() + ": ")
			p := path + "/" + jsonpointer.Escape(key)
			if i < len(v.keys) {
				a.value(b, v.items[i], p, depth+1, comma)
			} else {
				b.WriteString("undefined" + comma + a.comment(p))
			}
		}
		b.WriteString("\n" + indent + "}" + after)
	case kindArray:
		if len(v.items) == 0 {
			b.WriteString("[]" + after + a.comment(path))
			return
		}
		b.WriteString("[" + a.comment(path))
		for i, item := range v.items {
			comma := ""
			if i < len(v.items)-1 {
				comma = ","
			}
			b.WriteString("\n" + indent + "  ")
			a.value(b, item, path+"/"+itoa(i), depth+1, comma)
		}
		b.WriteString("\n" + indent + "]" + after)
	default:
		var vb bytes.Buffer
		v.write(&vb)
		b.WriteString(shorten(vb.String()) + after + a.comment(path))
	}
}

// missingKeys returns the members of the object at path that problems are about but the
// object does not have (a missing required property), in the problems' order.
func (a *annotator) missingKeys(v *value, path string) []string {
	var out []string
	for p := range a.byPath {
		rest, ok := strings.CutPrefix(p, path+"/")
		if !ok || strings.Contains(rest, "/") {
			continue
		}
		key := jsonpointer.Unescape(rest)
		has := false
		for _, k := range v.keys {
			has = has || k == key
		}
		if !has {
			out = append(out, key)
		}
	}
	slices.Sort(out) // map order is random
	return out
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
