package tooltest

import (
	"bytes"
	"cmp"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/runtime"
)

// maxMismatches bounds what sentValues reports for one call.
const maxMismatches = 10

// sentValues compares the arguments a handler was given (args, a pointer to the args struct,
// or nil for a tool without arguments) with the document that was sent, and describes each
// member of the document, at any depth, whose value the arguments do not hold. Members the
// document leaves out are not compared (the decoder applies defaults there), nor values it
// cannot judge from the Go type alone (a string a TextUnmarshaler refuses, a number beyond
// its float type's range, text with invalid UTF-8, which decoders replace).
func sentValues(doc []byte, args any) []string {
	if args == nil {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	var sent any
	if dec.Decode(&sent) != nil {
		return nil
	}
	c := &comparer{order: memberOrder(doc)}
	c.value("", reflect.ValueOf(args), sent)
	return c.out
}

type comparer struct {
	out []string
	// order is the position of each member name in the document, so that mismatches are
	// reported in document order, not in a map's.
	order map[string]int
}

// memberOrder numbers the member names of doc in the order they first appear.
func memberOrder(doc []byte) map[string]int {
	order := map[string]int{}
	dec := json.NewDecoder(bytes.NewReader(doc))
	type frame struct{ object, atName bool }
	var open []frame // the objects and arrays being read
	for {
		tok, err := dec.Token()
		if err != nil {
			return order
		}
		if n := len(open); n > 0 && open[n-1].atName {
			if name, ok := tok.(string); ok {
				if _, seen := order[name]; !seen {
					order[name] = len(order)
				}
				open[n-1].atName = false
				continue
			}
		}
		switch tok {
		case json.Delim('{'):
			open = append(open, frame{object: true, atName: true})
			continue
		case json.Delim('['):
			open = append(open, frame{})
			continue
		case json.Delim('}'), json.Delim(']'):
			open = open[:len(open)-1]
		}
		// A value ended: in an object, a name comes next.
		if n := len(open); n > 0 && open[n-1].object {
			open[n-1].atName = true
		}
	}
}

// names returns the member names of an object in document order.
func (c *comparer) names(members map[string]any) []string {
	names := make([]string, 0, len(members))
	for name := range members {
		names = append(names, name)
	}
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(c.order[a], c.order[b]) })
	return names
}

func (c *comparer) mismatch(at string, format string, args ...any) {
	if len(c.out) < maxMismatches {
		if at == "" {
			at = "the arguments"
		}
		c.out = append(c.out, at+": "+fmt.Sprintf(format, args...))
	}
}

var (
	timeType            = reflect.TypeFor[time.Time]()
	durationType        = reflect.TypeFor[time.Duration]()
	rawMessageType      = reflect.TypeFor[json.RawMessage]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// value compares v, the Go value at pointer at, with sent, the JSON value read with
// UseNumber.
func (c *comparer) value(at string, v reflect.Value, sent any) {
	t := v.Type()
	switch {
	case t == rawMessageType:
		var got any
		dec := json.NewDecoder(bytes.NewReader(v.Bytes()))
		dec.UseNumber()
		if dec.Decode(&got) != nil || !jsonEqual(got, sent) {
			c.mismatch(at, "got %s", v.Bytes())
		}
		return
	case t == timeType:
		if s, ok := sent.(string); ok {
			want, err := time.Parse(time.RFC3339Nano, strings.ToUpper(s))
			if got := v.Interface().(time.Time); err == nil && !got.Equal(want) {
				c.mismatch(at, "got %s, sent %q", got.Format(time.RFC3339Nano), s)
			}
		}
		return
	case t == durationType:
		if s, ok := sent.(string); ok {
			want, err := time.ParseDuration(s)
			if got := time.Duration(v.Int()); err == nil && got != want {
				c.mismatch(at, "got %s, sent %q", got, s)
			}
		}
		return
	case t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(textUnmarshalerType):
		if s, ok := sent.(string); ok {
			want := reflect.New(t)
			if want.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)) == nil && !reflect.DeepEqual(want.Elem().Interface(), v.Interface()) {
				c.mismatch(at, "got %v, sent %q", v.Interface(), s)
			}
		}
		return
	}
	switch t.Kind() {
	case reflect.Pointer:
		switch {
		case sent == nil && !v.IsNil():
			c.mismatch(at, "got a value, sent null")
		case sent != nil && v.IsNil():
			c.mismatch(at, "got nil, sent %s", shownJSON(sent))
		case sent != nil:
			c.value(at, v.Elem(), sent)
		}
	case reflect.Interface:
		var got any
		if !v.IsNil() {
			data, err := json.Marshal(v.Interface())
			if err != nil {
				return
			}
			dec := json.NewDecoder(bytes.NewReader(data))
			dec.UseNumber()
			_ = dec.Decode(&got)
		}
		if !jsonEqual(got, sent) {
			c.mismatch(at, "got %s, sent %s", shownJSON(got), shownJSON(sent))
		}
	case reflect.String:
		if s, ok := sent.(string); ok && !strings.ContainsRune(s, utf8.RuneError) && v.String() != s {
			c.mismatch(at, "got %q, sent %q", v.String(), s)
		}
	case reflect.Bool:
		if b, ok := sent.(bool); ok && v.Bool() != b {
			c.mismatch(at, "got %t, sent %t", v.Bool(), b)
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		if n, ok := exactNumber(sent); ok && n.Cmp(new(big.Rat).SetInt64(v.Int())) != 0 {
			c.mismatch(at, "got %d, sent %s", v.Int(), sent)
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if n, ok := exactNumber(sent); ok && n.Cmp(new(big.Rat).SetInt(new(big.Int).SetUint64(v.Uint()))) != 0 {
			c.mismatch(at, "got %d, sent %s", v.Uint(), sent)
		}
	case reflect.Float32, reflect.Float64:
		if n, ok := sent.(json.Number); ok {
			want, err := strconv.ParseFloat(string(n), t.Bits())
			if err == nil && want != v.Float() {
				c.mismatch(at, "got %v, sent %s", v.Float(), n)
			}
		}
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 && t.Kind() == reflect.Slice {
			if s, ok := sent.(string); ok {
				if want, err := base64.StdEncoding.DecodeString(s); err == nil && !bytes.Equal(want, v.Bytes()) {
					c.mismatch(at, "got bytes %q, sent %q", v.Bytes(), s)
				}
				return
			}
		}
		items, ok := sent.([]any)
		if !ok {
			return
		}
		if v.Len() != len(items) {
			c.mismatch(at, "got %d items, sent %d", v.Len(), len(items))
			return
		}
		for i, item := range items {
			c.value(at+"/"+strconv.Itoa(i), v.Index(i), item)
		}
	case reflect.Map:
		members, ok := sent.(map[string]any)
		if !ok {
			return
		}
		for _, name := range c.names(members) {
			member := members[name]
			key, ok := mapKey(t.Key(), name)
			if !ok {
				continue
			}
			got := v.MapIndex(key)
			if !got.IsValid() {
				c.mismatch(at+"/"+jsonpointer.Escape(name), "missing from the map, sent %s", shownJSON(member))
				continue
			}
			c.value(at+"/"+jsonpointer.Escape(name), got, member)
		}
	case reflect.Struct:
		members, ok := sent.(map[string]any)
		if !ok {
			return
		}
		fields := jsonFields(t)
		for _, name := range c.names(members) {
			member := members[name]
			ptr := at + "/" + jsonpointer.Escape(name)
			index, ok := fields[name]
			if !ok {
				c.mismatch(ptr, "accepted, but the arguments have no field of that name")
				continue
			}
			field, err := v.FieldByIndexErr(index)
			if err != nil { // through a nil embedded pointer
				c.mismatch(ptr, "not set, sent %s", shownJSON(member))
				continue
			}
			c.value(ptr, field, member)
		}
	}
}

// jsonFields maps the JSON names of a struct type's fields, embedded structs' promoted, to
// their index paths, as encoding/json names them: a tag's name, else the Go name; the
// shallowest field wins a name.
func jsonFields(t reflect.Type) map[string][]int {
	out := map[string][]int{}
	for _, f := range reflect.VisibleFields(t) {
		tag := f.Tag.Get("json")
		if !f.IsExported() || tag == "-" {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		if f.Anonymous && name == "" && (f.Type.Kind() == reflect.Struct || f.Type.Kind() == reflect.Pointer && f.Type.Elem().Kind() == reflect.Struct) {
			continue // promoted: its fields are visible themselves
		}
		if name == "" {
			name = f.Name
		}
		if prev, ok := out[name]; !ok || len(f.Index) < len(prev) {
			out[name] = f.Index
		}
	}
	return out
}

// mapKey converts a JSON member name to a key of type t: a string, integer or
// TextUnmarshaler key, as encoding/json reads them.
func mapKey(t reflect.Type, name string) (reflect.Value, bool) {
	switch {
	case reflect.PointerTo(t).Implements(textUnmarshalerType):
		k := reflect.New(t)
		if k.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(name)) != nil {
			return reflect.Value{}, false
		}
		return k.Elem(), true
	case t.Kind() == reflect.String:
		return reflect.ValueOf(name).Convert(t), true
	case t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64:
		n, err := strconv.ParseInt(name, 10, 64)
		if err != nil {
			return reflect.Value{}, false
		}
		return reflect.ValueOf(n).Convert(t), true
	case t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uintptr:
		n, err := strconv.ParseUint(name, 10, 64)
		if err != nil {
			return reflect.Value{}, false
		}
		return reflect.ValueOf(n).Convert(t), true
	}
	return reflect.Value{}, false
}

// exactNumber reads a JSON number exactly.
func exactNumber(sent any) (*big.Rat, bool) {
	n, ok := sent.(json.Number)
	if !ok {
		return nil, false
	}
	return new(big.Rat).SetString(string(n))
}

// jsonEqual compares two JSON values read with UseNumber, numbers by their exact value.
func jsonEqual(a, b any) bool {
	switch a := a.(type) {
	case json.Number:
		x, okA := exactNumber(a)
		y, okB := exactNumber(b)
		return okA && okB && x.Cmp(y) == 0
	case []any:
		bs, ok := b.([]any)
		if !ok || len(a) != len(bs) {
			return false
		}
		for i := range a {
			if !jsonEqual(a[i], bs[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		bm, ok := b.(map[string]any)
		if !ok || len(a) != len(bm) {
			return false
		}
		for k, v := range a {
			w, ok := bm[k]
			if !ok || !jsonEqual(v, w) {
				return false
			}
		}
		return true
	}
	return a == b
}

func shownJSON(v any) string {
	data, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(data) > 200 {
		return string(data[:200]) + "…"
	}
	return string(data)
}

// malformedProblems describes what is wrong with the problems a refused call lists: none at
// all, a problem without a message, or a path that is not a JSON Pointer into the document
// sent (the parent of each path must be in it: a missing property's parent is).
func malformedProblems(doc []byte, problems []runtime.Problem) []string {
	if len(problems) == 0 {
		return []string{"refused as invalid arguments without a problem"}
	}
	var sent any
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	isJSON := dec.Decode(&sent) == nil
	var out []string
	for _, p := range problems {
		switch {
		case p.Message == "":
			out = append(out, fmt.Sprintf("the problem at %q has no message", p.Path))
		case p.Path != "" && !strings.HasPrefix(p.Path, "/"):
			out = append(out, fmt.Sprintf("the problem %q has a path that is not a JSON Pointer", p))
		case isJSON && p.Path != "" && !resolves(sent, parentPointer(p.Path)):
			out = append(out, fmt.Sprintf("the problem %q names a place that is not in the document", p))
		}
	}
	return out
}

func parentPointer(p string) string {
	return p[:strings.LastIndex(p, "/")]
}

// resolves reports whether the JSON Pointer p names a value in doc.
func resolves(doc any, p string) bool {
	cur := doc
	for _, tok := range jsonpointer.Tokens(p) {
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[tok]
			if !ok {
				return false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return false
			}
			cur = c[i]
		default:
			return false
		}
	}
	return true
}
