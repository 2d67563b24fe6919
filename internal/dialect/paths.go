package dialect

import (
	"strconv"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
)

// maxVisits bounds the instance walk: a schema whose $defs fan out into many paths is walked
// once per path, and a hostile model should not make generation slow.
const maxVisits = 100000

// instanceWalker walks a canonical schema the way arguments are shaped: properties by name,
// array items and map values as "*", through $refs. A $ref back to a node being walked is a
// recursive place: it becomes a Loop instead of being walked again.
type instanceWalker struct {
	root   *object
	visit  func(path string, n *object)
	active map[string]string // $ref being walked → the instance path where it started
	loops  []Loop
	visits int
}

// walkInstances calls visit for every object schema at every instance path of the canonical
// schema (each "*" standing for all items or values) and returns the loops of its recursive
// types.
func walkInstances(root *object, visit func(path string, n *object)) []Loop {
	w := &instanceWalker{root: root, visit: visit, active: map[string]string{"#": ""}}
	w.walk(root, "")
	return w.loops
}

func (w *instanceWalker) walk(n *object, path string) {
	if n == nil || w.visits >= maxVisits {
		return
	}
	w.visits++
	if ref := n.str("$ref"); ref != "" {
		if target, ok := w.active[ref]; ok {
			loop := Loop{Path: path, Target: target}
			for _, l := range w.loops {
				if l == loop {
					return
				}
			}
			w.loops = append(w.loops, loop)
			return
		}
		w.active[ref] = path
		w.walk(resolve(w.root, ref), path)
		delete(w.active, ref)
	}
	w.visit(path, n)
	if props := n.obj("properties"); props != nil {
		for _, k := range props.keys {
			w.walk(props.obj(k), path+"/"+jsonpointer.Escape(k))
		}
	}
	w.walk(n.obj("items"), path+"/*")
	w.walk(n.obj("additionalProperties"), path+"/*")
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		for _, b := range n.list(kw) {
			if b, ok := b.(*object); ok {
				w.walk(b, path)
			}
		}
	}
}

// nullMeansAbsent lists the instance paths of every optional property in the canonical
// schema: OpenAI strict makes each of them required and nullable.
func nullMeansAbsent(root *object) ([]string, []Loop) {
	var out []string
	seen := map[string]bool{}
	loops := walkInstances(root, func(path string, n *object) {
		for _, k := range optionalProperties(n) {
			p := path + "/" + jsonpointer.Escape(k)
			if !seen[p] {
				seen[p] = true
				out = append(out, p)
			}
		}
	})
	return out, loops
}

// geminiNameRule is the rule Gemini applies to parameter (property) names.
const geminiNameRule = `^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`

// geminiName reports whether k satisfies geminiNameRule.
func geminiName(k string) bool {
	if k == "" || len(k) > 64 || k[0] >= '0' && k[0] <= '9' {
		return false
	}
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}

// geminiRenames returns the new name of every property of one object that Gemini rejects:
// other characters become "_", a leading digit gets a "_" before it, the name is cut to 64
// characters, and a clash with another property (or an earlier rename) gets "_2", "_3", ….
// It depends only on the object's property names, so the schema rewrite and the Renames
// record agree.
func geminiRenames(keys []string) map[string]string {
	var out map[string]string
	taken := map[string]bool{}
	for _, k := range keys {
		if geminiName(k) {
			taken[k] = true
		}
	}
	for _, k := range keys {
		if geminiName(k) {
			continue
		}
		b := []byte(k)
		for i, c := range b {
			if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				b[i] = '_'
			}
		}
		base := string(b)
		if base == "" || base[0] >= '0' && base[0] <= '9' {
			base = "_" + base
		}
		if len(base) > 64 {
			base = base[:64]
		}
		name := base
		for i := 2; taken[name]; i++ {
			suffix := "_" + strconv.Itoa(i)
			name = base[:min(len(base), 64-len(suffix))] + suffix
		}
		taken[name] = true
		if out == nil {
			out = map[string]string{}
		}
		out[k] = name
	}
	return out
}

// renamesOf lists the Gemini renames at every instance path of the canonical schema.
func renamesOf(root *object) ([]Rename, []Loop) {
	var out []Rename
	seen := map[Rename]bool{}
	loops := walkInstances(root, func(path string, n *object) {
		props := n.obj("properties")
		if props == nil {
			return
		}
		renamed := geminiRenames(props.keys)
		for _, k := range props.keys {
			if to, ok := renamed[k]; ok {
				r := Rename{Path: path, From: k, To: to}
				if !seen[r] {
					seen[r] = true
					out = append(out, r)
				}
			}
		}
	})
	return out, loops
}
