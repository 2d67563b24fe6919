package presets

import (
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/go-faster/jx"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/schematool"
)

// Rename returns t under another name, its top-level arguments renamed as args says (the
// tool's name → the new one; nil keeps them), so a prompt written for another system's names
// works unchanged. Everything else is t's: description, policies, handler. The renamed tool
// validates with a decoder built from the renamed schema (runtime/schematool), so problems
// name the new arguments, and a model sending an old name is told it is unknown, with the new
// name it probably meant; the call then runs through t's own binding with the old names.
// Approval and the loop guards see the new names. The tool's texts name the new arguments:
// a renamed argument's description that starts with the Go field's name ("Num is the number
// of results") starts with the new name instead ("max_results is …"), and an old name is
// replaced wherever it is a whole word but where it is an English word used as one ("the
// agent", "sub-agent"). r.DeclaredName
// keeps the name t's toolkit knows it by, for runtime.ToolName. t's schema must be in schematool's subset,
// as every toolkit's is.
func Rename(t runtime.Tool, name string, args map[string]string) (runtime.Tool, error) {
	schema, err := renameProperties(t.InputSchema, args)
	if err != nil {
		return runtime.Tool{}, fmt.Errorf("presets: rename %s: %w", t.Name, err)
	}
	s, err := schematool.Compile(schema)
	if err != nil {
		return runtime.Tool{}, fmt.Errorf("presets: rename %s: %w", t.Name, err)
	}
	back := make(map[string]string, len(args)) // new name → the tool's
	for old, n := range args {
		back[n] = old
	}
	orig := t
	r := t
	if name != t.Name {
		r.Name = name
		r.DeclaredName = cmp.Or(t.DeclaredName, t.Name) // what its toolkit's texts call it
	}
	r.InputSchema = s.JSON()
	r.Variants = nil // derived again from the renamed schema (Dialects)
	r.Examples = slices.Clone(t.Examples)
	for i, e := range r.Examples {
		r.Examples[i].Args, err = renameKeys(e.Args, args)
		if err != nil {
			return runtime.Tool{}, fmt.Errorf("presets: rename %s: example %d: %w", t.Name, i+1, err)
		}
	}
	if err := retext(&r, argRewriter(args)); err != nil {
		return runtime.Tool{}, fmt.Errorf("presets: rename %s: %w", t.Name, err)
	}
	r.Bind = func(ctx context.Context, data []byte) (runtime.BoundCall, error) {
		canonical, err := s.Validate(data)
		if err != nil {
			return nil, err
		}
		doc, err := renameKeys(canonical, back)
		if err != nil {
			return nil, err
		}
		call, err := orig.BindArgs(ctx, doc)
		var ae *runtime.ArgsError
		if errors.As(err, &ae) {
			// The tool's own checks (a Validate method) name its arguments: name the new ones.
			problems := slices.Clone(ae.Problems)
			for i, p := range problems {
				head, rest, _ := strings.Cut(strings.TrimPrefix(p.Path, "/"), "/")
				if n, ok := args[jsonpointer.Unescape(head)]; ok && p.Path != "" {
					problems[i].Path = "/" + jsonpointer.Escape(n) + strings.TrimSuffix("/"+rest, "/")
				}
			}
			return nil, &runtime.ArgsError{Problems: problems}
		}
		return call, err
	}
	return r, nil
}

// renameProperties renames the properties of the schema's root object (and its required
// list), keeping their order; every name args lists must be a property.
func renameProperties(schema []byte, args map[string]string) ([]byte, error) {
	found := map[string]bool{}
	var e jx.Encoder
	d := jx.DecodeBytes(schema)
	e.ObjStart()
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		e.FieldStart(string(key))
		switch string(key) {
		case "properties":
			e.ObjStart()
			if err := d.ObjBytes(func(d *jx.Decoder, prop []byte) error {
				raw, err := d.Raw()
				if err != nil {
					return err
				}
				n, ok := args[string(prop)]
				found[string(prop)] = ok
				if !ok {
					n = string(prop)
				}
				e.FieldStart(n)
				e.Raw(raw)
				return nil
			}); err != nil {
				return err
			}
			e.ObjEnd()
		case "required":
			e.ArrStart()
			if err := d.Arr(func(d *jx.Decoder) error {
				s, err := d.Str()
				if n, ok := args[s]; ok {
					s = n
				}
				e.Str(s)
				return err
			}); err != nil {
				return err
			}
			e.ArrEnd()
		default:
			return copyValue(d, &e)
		}
		return nil
	})
	e.ObjEnd()
	if err != nil {
		return nil, err
	}
	for _, old := range slices.Sorted(maps.Keys(args)) {
		if !found[old] {
			return nil, fmt.Errorf("no argument %q to rename", old)
		}
	}
	return e.Bytes(), nil
}

// renameKeys renames the members of a JSON object as names says.
func renameKeys(doc []byte, names map[string]string) ([]byte, error) {
	if len(bytes.TrimSpace(doc)) == 0 {
		return doc, nil
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return nil, err
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		if n, ok := names[k]; ok {
			k = n
		}
		out[k] = v
	}
	return json.Marshal(out)
}

// argRewriter returns the retext function naming renamed arguments by their new names.
func argRewriter(args map[string]string) func(where, s string) string {
	return func(where, s string) string {
		// "/properties/<new>/description": the renamed argument's own description.
		if prop, ok := strings.CutPrefix(where, "/properties/"); ok {
			prop = strings.TrimSuffix(prop, "/description")
			for old, n := range args {
				if n == prop {
					s = renameHead(s, old, n)
				}
			}
		}
		for old, n := range args {
			s = replaceArgName(s, old, n)
		}
		return s
	}
}

// replaceArgName replaces the whole words old of s by name, except where old is an English
// word used as one: after an article or a hyphen, or before a hyphen ("the agent",
// "sub-agent"). "num wins when both are set" becomes "max_results wins …".
func replaceArgName(s, old, name string) string {
	var b strings.Builder
	for {
		i := wordIndex(s, old)
		if i < 0 {
			b.WriteString(s)
			return b.String()
		}
		before, after := s[:i], s[i+len(old):]
		prose := strings.HasSuffix(before, "-") || strings.HasPrefix(after, "-")
		for _, article := range []string{"the ", "a ", "an ", "The ", "A ", "An "} {
			prose = prose || strings.HasSuffix(before, article) && (len(before) == len(article) || !isWordByte(before[len(before)-len(article)-1]))
		}
		b.WriteString(before)
		if prose {
			b.WriteString(old)
		} else {
			b.WriteString(name)
		}
		s = after
	}
}

// wordIndex returns where old first is in s as a whole word, or -1.
func wordIndex(s, old string) int {
	for at := 0; ; {
		i := strings.Index(s[at:], old)
		if i < 0 {
			return -1
		}
		i += at
		end := i + len(old)
		if (i == 0 || !isWordByte(s[i-1])) && (end == len(s) || !isWordByte(s[end])) {
			return i
		}
		at = i + 1
	}
}

func isWordByte(c byte) bool {
	return c == '_' || '0' <= c && c <= '9' || 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z'
}

// renameHead replaces the first word of a description when it is the Go field's name of the
// argument old ("TimeoutMS" for timeout_ms, "Num" for num): the doc comment of a field starts
// with its name, which under another name tells the model of an argument it cannot send.
func renameHead(s, old, name string) string {
	head, rest, _ := strings.Cut(s, " ")
	if rest != "" && strings.EqualFold(head, strings.ReplaceAll(old, "_", "")) {
		return name + " " + rest
	}
	return s
}
