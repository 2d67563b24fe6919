package variant

import (
	"slices"
	"sync"

	"github.com/toolgen-go/toolgen/internal/dialect"
)

// Derive returns the variant key names (OpenAI, AnthropicStrict, …) derived from schema, a
// tool's canonical input schema, with the conversion toolgen checked the schema with when it
// generated the code (internal/dialect); runtime.Tool.Variant calls it for the keys a tool
// lists in Dialects. ok is false when the provider cannot take the schema (a root that is not
// an object, a strict variant that is impossible) or key is unknown.
//
// A variant is derived once per schema and key, on first use (concurrent first uses wait for
// one derivation), and kept for the life of the process, for up to 4096 distinct schemas;
// beyond that it is derived on every call. Its slices are shared: treat it as read-only.
func Derive(schema []byte, key string) (v Variant, ok bool) {
	i := slices.Index(dialect.Keys[:], key)
	if i < 0 || len(schema) == 0 {
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
