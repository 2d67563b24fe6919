package decode

import (
	"fmt"
	"maps"
	"reflect"
	"time"
)

// Check reports whether the table st agrees with the struct type t: every member at the
// offset of a field whose type its Value reads, recursively. The tables write through unsafe
// pointers, so this is what makes them safe: DecodeArgs runs it before its first decode,
// and refuses to decode with a table that fails it.
func Check(st *Struct, t reflect.Type) error {
	c := checker{seen: map[checked]bool{}}
	return c.structType(st, t, t.String())
}

type checked struct {
	st *Struct
	t  reflect.Type
}

type checker struct{ seen map[checked]bool }

func (c *checker) structType(st *Struct, t reflect.Type, at string) error {
	if t.Kind() != reflect.Struct {
		return fmt.Errorf("%s: a struct table cannot read type %s", at, t)
	}
	if c.seen[checked{st, t}] {
		return nil // a recursive type: checked, or being checked, further up
	}
	c.seen[checked{st, t}] = true
	if st.Fields == nil || len(st.Members) != len(st.Fields.names) {
		return fmt.Errorf("%s: the table has %d members for its property names", at, len(st.Members))
	}
	for _, i := range st.Defaults {
		if i < 0 || i >= len(st.Members) || st.Members[i].Default == nil {
			return fmt.Errorf("%s: default %d has no member or no function", at, i)
		}
	}
	for i, m := range st.Members {
		if m.Value == nil {
			return fmt.Errorf("%s.%s: no value", at, st.Fields.names[i])
		}
		if m.Value.Kind == KindFunc {
			// A run-time table's function (runtime/schematool), typed by its maker: it
			// converts p to the pointer it reads.
			if m.Value.Func == nil {
				return fmt.Errorf("%s.%s: a function member without its function", at, st.Fields.names[i])
			}
			continue
		}
		fts := fieldsAt(t, m.Offset, m.Value, nil)
		if len(fts) == 0 {
			return fmt.Errorf("%s.%s: no field at offset %d takes a value of kind %s", at, st.Fields.names[i], m.Offset, kindName(m.Value.Kind))
		}
		if err := c.oneOf(m.Value, fts, at+"."+st.Fields.names[i]); err != nil {
			return err
		}
	}
	return nil
}

// fieldsAt appends to out the fields of t at offset off (in t or in a struct embedded by
// value) that v reads, outermost first. A struct value may fit more than one: an embedded
// struct and its first field share an offset, and so do a field of size zero and the next.
func fieldsAt(t reflect.Type, off uintptr, v *Value, out []reflect.Type) []reflect.Type {
	for i := range t.NumField() {
		f := t.Field(i)
		if off < f.Offset || off >= f.Offset+max(f.Type.Size(), 1) {
			continue
		}
		if off == f.Offset && fits(v, f.Type) {
			out = append(out, f.Type)
		}
		if f.Type.Kind() == reflect.Struct {
			out = fieldsAt(f.Type, off-f.Offset, v, out)
		}
	}
	return out
}

// oneOf checks v against the first of ts it agrees with, and returns the problem with the
// first when it agrees with none. A failed try leaves no trace: the pairs of table and type
// it marked as seen may have passed only because a pair further up was assumed to.
func (c *checker) oneOf(v *Value, ts []reflect.Type, at string) error {
	if len(ts) == 1 {
		return c.value(v, ts[0], at)
	}
	var first error
	for _, t := range ts {
		try := checker{seen: maps.Clone(c.seen)}
		err := try.value(v, t, at)
		if err == nil {
			c.seen = try.seen
			return nil
		}
		if first == nil {
			first = err
		}
	}
	return first
}

// timeType is what a KindTime value must convert to: its layout is time.Time's. The other
// kinds write a Go value of their kind and size (a KindDuration any int64 type, a KindRaw
// any []byte type), which is safe for every type of that kind.
var timeType = reflect.TypeFor[time.Time]()

// fits reports whether v reads a Go value of type t, shallowly.
func fits(v *Value, t reflect.Type) bool {
	size := uintptr(v.Size)
	switch v.Kind {
	case KindString:
		return t.Kind() == reflect.String
	case KindInt:
		return t.Kind() >= reflect.Int && t.Kind() <= reflect.Int64 && t.Size() == size
	case KindUint:
		return t.Kind() >= reflect.Uint && t.Kind() <= reflect.Uintptr && t.Size() == size
	case KindFloat:
		return (t.Kind() == reflect.Float32 || t.Kind() == reflect.Float64) && t.Size() == size
	case KindBool:
		return t.Kind() == reflect.Bool
	case KindBytes, KindRaw:
		return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
	case KindTime:
		return t.ConvertibleTo(timeType) && t.Kind() == reflect.Struct
	case KindDuration:
		return t.Kind() == reflect.Int64
	case KindAny:
		return t.Kind() == reflect.Interface && t.NumMethod() == 0
	case KindStruct:
		return t.Kind() == reflect.Struct && v.Struct != nil
	case KindNullable:
		return v.Elem != nil && fits(v.Elem, t)
	case KindFunc:
		return v.Func != nil
	case KindEmbedded:
		_, ok := v.Go.(allocator)
		return ok && v.Elem != nil && t == v.Go.goType() && t.Elem().Kind() == reflect.Struct
	case KindGo:
		if v.Go == nil {
			return false
		}
		g := v.Go.goType()
		if _, ok := v.Go.(interface{ array() }); ok {
			return t.Kind() == reflect.Array && t.Len() == v.Min && t.Elem() == g
		}
		return t == g || (t.Kind() == g.Kind() && t.ConvertibleTo(g) && t.Size() == g.Size() && sameShape(t, g))
	}
	return false
}

// sameShape reports whether t and g, of one kind, have identical element types (a named
// slice, map or pointer type converts to its underlying type only then).
func sameShape(t, g reflect.Type) bool {
	switch t.Kind() {
	case reflect.Slice, reflect.Pointer:
		return t.Elem() == g.Elem()
	case reflect.Map:
		return t.Key() == g.Key() && t.Elem() == g.Elem()
	}
	return true // a text type: TextOf names T itself, so t == g
}

// value checks v against t, and the values v holds against t's elements.
func (c *checker) value(v *Value, t reflect.Type, at string) error {
	if !fits(v, t) {
		return fmt.Errorf("%s: a value of kind %s cannot read type %s", at, kindName(v.Kind), t)
	}
	switch v.Kind {
	case KindStruct:
		return c.structType(v.Struct, t, at)
	case KindNullable:
		return c.value(v.Elem, t, at)
	case KindEmbedded:
		fts := fieldsAt(t.Elem(), v.Offset, v.Elem, nil)
		if len(fts) == 0 {
			return fmt.Errorf("%s: no field at offset %d of %s takes a value of kind %s", at, v.Offset, t.Elem(), kindName(v.Elem.Kind))
		}
		return c.oneOf(v.Elem, fts, at)
	case KindGo:
		if _, text := v.Go.(interface{ text() }); text {
			return nil
		}
		switch t.Kind() {
		case reflect.Slice, reflect.Array, reflect.Map, reflect.Pointer:
			if v.Elem == nil {
				return fmt.Errorf("%s: a container value without an item value", at)
			}
			return c.value(v.Elem, t.Elem(), at+"[]")
		}
	}
	return nil
}

func kindName(k Kind) string {
	names := [...]string{KindString: "string", KindInt: "int", KindUint: "uint", KindFloat: "float", KindBool: "bool",
		KindBytes: "bytes", KindTime: "time", KindDuration: "duration", KindRaw: "raw JSON", KindAny: "any",
		KindStruct: "struct", KindNullable: "nullable", KindGo: "Go container", KindEmbedded: "embedded pointer", KindFunc: "function"}
	if int(k) < len(names) && names[k] != "" {
		return names[k]
	}
	return fmt.Sprintf("%d", k)
}
