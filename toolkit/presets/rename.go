package presets

import (
	"bytes"
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
// Approval and the loop guards see the new names. t's schema must be in schematool's subset,
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
	r.Name = name
	r.InputSchema = s.JSON()
	r.Variants = nil // derived again from the renamed schema (Dialects)
	r.Examples = slices.Clone(t.Examples)
	for i, e := range r.Examples {
		r.Examples[i].Args, err = renameKeys(e.Args, args)
		if err != nil {
			return runtime.Tool{}, fmt.Errorf("presets: rename %s: example %d: %w", t.Name, i+1, err)
		}
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

// mustRename is Rename for the presets' own tables, whose schemas are known to rename.
func mustRename(t runtime.Tool, name string, args map[string]string) runtime.Tool {
	r, err := Rename(t, name, args)
	if err != nil {
		panic(err)
	}
	return r
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
			raw, err := d.Raw()
			if err != nil {
				return err
			}
			e.Raw(raw)
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
