// Package variant holds a tool's input schema as each provider must receive it: the keys of
// runtime.Tool.Variants and runtime.Tool.Dialects, the Variant an adapter sends, and Restore,
// which gives the arguments the provider sent back the shape the canonical schema (and so the
// generated decoder) expects. The provider adapters (runtime/openai, runtime/anthropic,
// runtime/gemini) use it; a program that only registers and calls tools does not, and one
// that writes a tool by hand needs it only to bring variants of its own.
package variant

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strings"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// The keys of runtime.Tool.Variants and runtime.Tool.Dialects: the provider dialects of a
// tool's input schema.
const (
	OpenAI           = "openai"            // OpenAI Chat Completions and Responses parameters
	Anthropic        = "anthropic"         // Anthropic input_schema
	AnthropicStrict  = "anthropic_strict"  // Anthropic input_schema for strict tool use, when possible
	GeminiParameters = "gemini"            // Gemini parameters (OpenAPI 3.0 subset)
	GeminiJSONSchema = "gemini_jsonschema" // Gemini parametersJsonSchema
)

// Variant is a tool's input schema as one provider must receive it, converted from the
// canonical schema (on first use, by Derive through runtime.Tool.Variant, or by hand), with what the runtime needs to
// undo the conversion on the arguments that come back.
type Variant struct {
	// Schema is the schema to send.
	Schema json.RawMessage
	// Strict says whether to send the tool as strict (OpenAI strict mode, Anthropic strict
	// tool use). OpenAI tools are always sent with strict set explicitly.
	Strict bool
	// NullMeansAbsent lists the properties that were optional in the canonical schema and are
	// required but nullable in this variant (OpenAI strict). A null received there means the
	// model left the property out, so the runtime removes it and the field's default applies.
	// Each entry is a JSON Pointer; "*" stands for every item of an array or every value of a
	// map.
	NullMeansAbsent []string
	// Renames lists properties renamed because the provider rejects their names (Gemini).
	Renames []Rename
	// Loops lists the recursive places of the schema: the value at a Loop's Path has the shape
	// of the value at its Target, an ancestor, so the pointers of NullMeansAbsent and Renames
	// that lie below Target apply below Path as well, at any depth.
	Loops []Loop
	// Moved lists the keywords the provider cannot express: restated in the description and
	// still enforced by the decoder, or dropped.
	Moved []string
}

// Rename is one renamed property: in the object at Path (a JSON Pointer in canonical names,
// "*" for every item), the provider sees To where the schema says From.
type Rename struct {
	Path string
	From string
	To   string
}

// Loop is one recursive place of a schema: the value at Path (a JSON Pointer in canonical
// names, "*" for every item) has the same shape as the value at Target, one of its ancestors.
type Loop struct {
	Path   string
	Target string
}

// maxRestoreDepth bounds the nesting Restore follows, so hostile input cannot exhaust the stack.
const maxRestoreDepth = 10000

// Restore undoes the conversion on arguments a provider sent for this variant, giving the
// arguments the canonical schema (and so the generated decoder) expects: a null at a
// NullMeansAbsent place is removed, as if the model had left the property out, and a renamed
// property gets its canonical name back. Other values are kept; strings may come back with
// different escapes, numbers keep their text. Arguments that are not JSON come back unchanged
// with the syntax error, so the caller can hand them to the decoder, which tells the model;
// so do arguments in which a null to remove has its key given again in the same object
// ({"unit":null,"unit":"kelvin"}), so that the decoder refuses the duplicate as it does on
// every other path, instead of seeing only the second value.
func (v Variant) Restore(args []byte) ([]byte, error) {
	if len(v.NullMeansAbsent) == 0 && len(v.Renames) == 0 {
		return args, nil
	}
	if len(v.Renames) == 0 && len(v.Loops) == 0 && !escapedPointers(v.NullMeansAbsent) {
		if out, general, err := dropNulls(args, v.NullMeansAbsent); !general {
			return out, err
		}
	}
	return v.restoreGeneral(args)
}

// escapedPointers reports a pattern with an RFC 6901 escape, which the fast path does not read.
func escapedPointers(patterns []string) bool {
	for _, p := range patterns {
		if strings.IndexByte(p, '~') >= 0 {
			return true
		}
	}
	return false
}

// restoreGeneral undoes every kind of conversion (nulls, renames, loops) by decoding and
// re-encoding the arguments.
func (v Variant) restoreGeneral(args []byte) ([]byte, error) {
	r := restorer{absent: map[string]bool{}, renames: map[string]map[string]string{}, loops: map[string]string{}}
	for _, p := range v.NullMeansAbsent {
		r.absent[p] = true
	}
	for _, rn := range v.Renames {
		if r.renames[rn.Path] == nil {
			r.renames[rn.Path] = map[string]string{}
		}
		r.renames[rn.Path][rn.To] = rn.From
	}
	for _, l := range v.Loops {
		r.loops[l.Path] = l.Target
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var buf bytes.Buffer
	if err := r.value(dec, &buf, "", 0); err != nil {
		return args, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return args, errors.New("invalid JSON: text after the arguments")
	}
	return buf.Bytes(), nil
}

type restorer struct {
	absent  map[string]bool
	renames map[string]map[string]string // object path → provider name → canonical name
	loops   map[string]string
}

// at returns the place of the value at path, following loops back to their targets.
func (r *restorer) at(path string) string {
	if t, ok := r.loops[path]; ok {
		return t
	}
	return path
}

func (r *restorer) value(dec *json.Decoder, buf *bytes.Buffer, path string, depth int) error {
	if depth > maxRestoreDepth {
		return errors.New("arguments nested too deeply")
	}
	tok, err := dec.Token()
	if err != nil {
		return err
	}
	delim, ok := tok.(json.Delim)
	if !ok {
		return writeToken(buf, tok)
	}
	switch delim {
	case '[':
		buf.WriteByte('[')
		item := r.at(path + "/*")
		for i := 0; dec.More(); i++ {
			if i > 0 {
				buf.WriteByte(',')
			}
			if err := r.value(dec, buf, item, depth+1); err != nil {
				return err
			}
		}
		buf.WriteByte(']')
	case '{':
		buf.WriteByte('{')
		written := 0
		var member bytes.Buffer
		var keys, dropped []string
		for dec.More() {
			kt, err := dec.Token()
			if err != nil {
				return err
			}
			key, _ := kt.(string)
			if from, ok := r.renames[path][key]; ok {
				key = from
			}
			place := path + "/" + jsonpointer.Escape(key)
			member.Reset()
			if err := r.value(dec, &member, r.at(place), depth+1); err != nil {
				return err
			}
			keys = append(keys, key)
			if r.absent[place] && bytes.Equal(member.Bytes(), []byte("null")) {
				dropped = append(dropped, key)
				continue
			}
			if written > 0 {
				buf.WriteByte(',')
			}
			written++
			if err := writeToken(buf, key); err != nil {
				return err
			}
			buf.WriteByte(':')
			buf.Write(member.Bytes())
		}
		buf.WriteByte('}')
		for _, d := range dropped {
			// Dropping a null must not hide a duplicate key from the decoder.
			n := 0
			for _, k := range keys {
				if k == d {
					n++
				}
			}
			if n > 1 {
				return errDroppedDuplicate
			}
		}
	}
	// The closing delimiter.
	_, err = dec.Token()
	return err
}

func writeToken(buf *bytes.Buffer, tok json.Token) error {
	if n, ok := tok.(json.Number); ok {
		buf.WriteString(n.String())
		return nil
	}
	b, err := json.Marshal(tok)
	if err != nil {
		return err
	}
	buf.Write(b)
	return nil
}

// schemaKeywordPrefix is how every schema toolgen generates begins.
const schemaKeywordPrefix = `{"$schema":"https://json-schema.org/draft/2020-12/schema",`

// WithoutSchemaKeyword returns a generated schema without its leading "$schema" member, for
// the provider fields that want a bare schema object (OpenAI output_schema, Gemini
// responseJsonSchema). Other schemas come back unchanged.
func WithoutSchemaKeyword(schema json.RawMessage) json.RawMessage {
	if len(schema) > len(schemaKeywordPrefix) && string(schema[:len(schemaKeywordPrefix)]) == schemaKeywordPrefix {
		return append(json.RawMessage{'{'}, schema[len(schemaKeywordPrefix):]...)
	}
	return schema
}
