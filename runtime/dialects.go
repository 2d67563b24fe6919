package runtime

import (
	"slices"
	"sync"

	"github.com/toolgen-go/toolgen/internal/dialect"
)

// Variant returns the input schema of t as the provider dialect key names (a Variant*
// constant) must receive it: t.Variants[key] when present, else, when t.Dialects names key,
// the variant derived from t.InputSchema. ok is false when t has no such variant (an adapter
// then refuses the tool, naming the provider it lacks).
//
// A derived variant is computed once per schema and key, on first use (concurrent first uses
// wait for one derivation), and kept for the life of the process, for up to 4096 distinct
// schemas; beyond that it is derived on every call. Its slices are shared: treat it as
// read-only, like the rest of a Tool.
func (t Tool) Variant(key string) (v Variant, ok bool) {
	if v, ok := t.Variants[key]; ok {
		return v, true
	}
	if len(t.InputSchema) == 0 || !slices.Contains(t.Dialects, key) {
		return Variant{}, false
	}
	return derivedVariant(t.InputSchema, key)
}

// maxDerivedSchemas bounds the schemas whose variants the process keeps: a catalog's tools,
// not whatever hand-built tools a long-running host may produce. A variable for tests.
var maxDerivedSchemas = 4096

// derivedSchemas caches the derived variants of each schema, by its text.
var derivedSchemas = struct {
	sync.RWMutex
	m map[string]*derivedVariants
}{m: map[string]*derivedVariants{}}

// derivedVariants holds the variants of one schema, each derived once, by its index in
// dialect.Keys.
type derivedVariants struct {
	once [len(dialect.Keys)]sync.Once
	v    [len(dialect.Keys)]Variant
	ok   [len(dialect.Keys)]bool
}

func derivedVariant(schema []byte, key string) (Variant, bool) {
	i := slices.Index(dialect.Keys[:], key)
	if i < 0 {
		return Variant{}, false
	}
	c := &derivedSchemas
	c.RLock()
	d := c.m[string(schema)]
	c.RUnlock()
	if d == nil {
		c.Lock()
		if d = c.m[string(schema)]; d == nil && len(c.m) < maxDerivedSchemas {
			d = &derivedVariants{}
			c.m[string(schema)] = d
		}
		c.Unlock()
		if d == nil {
			return derive(schema, key)
		}
	}
	d.once[i].Do(func() { d.v[i], d.ok[i] = derive(schema, key) })
	return d.v[i], d.ok[i]
}

// derive converts schema into the variant key names, as toolgen's gen/provider.Convert does.
func derive(schema []byte, key string) (Variant, bool) {
	dv, ok := dialect.Derive(schema, key)
	if !ok {
		return Variant{}, false
	}
	v := Variant{Schema: dv.Schema, Strict: dv.Strict, NullMeansAbsent: dv.NullMeansAbsent, Moved: dv.Moved}
	for _, r := range dv.Renames {
		v.Renames = append(v.Renames, Rename(r))
	}
	for _, l := range dv.Loops {
		v.Loops = append(v.Loops, Loop(l))
	}
	return v, true
}
