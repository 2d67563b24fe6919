package dialect

import (
	"encoding/json"
	"slices"
	"strings"
)

// phrases says in words what the removed keywords required, in a fixed order, joined with
// "; ": `1–64 chars; pattern: ^[a-z]+$; default: "celsius"`. A model reads the description, so
// a constraint the provider's schema dialect cannot carry still reaches it.
func phrases(removed map[string]any) string {
	var out []string
	add := func(s string) {
		if s != "" {
			out = append(out, s)
		}
	}
	take := func(k string) (any, bool) {
		v, ok := removed[k]
		delete(removed, k)
		return v, ok
	}
	add(rangePhrase(take, "minLength", "maxLength", "char", "chars"))
	lo, hasLo := take("minimum")
	hi, hasHi := take("maximum")
	switch {
	case hasLo && hasHi:
		add(number(lo) + " to " + number(hi))
	case hasLo:
		add("≥ " + number(lo))
	case hasHi:
		add("≤ " + number(hi))
	}
	if v, ok := take("exclusiveMinimum"); ok {
		add("> " + number(v))
	}
	if v, ok := take("exclusiveMaximum"); ok {
		add("< " + number(v))
	}
	if v, ok := take("multipleOf"); ok {
		add("multiple of " + number(v))
	}
	add(rangePhrase(take, "minItems", "maxItems", "item", "items"))
	if v, ok := take("uniqueItems"); ok && v == true {
		add("unique items")
	}
	add(rangePhrase(take, "minProperties", "maxProperties", "entry", "entries"))
	if v, ok := take("pattern"); ok {
		add("pattern: " + text(v))
	}
	if v, ok := take("format"); ok {
		add("format: " + text(v))
	}
	if v, ok := take("contentEncoding"); ok {
		add(text(v) + "-encoded")
	}
	if v, ok := take("propertyNames"); ok {
		if o, _ := v.(*object); o != nil && o.has("pattern") {
			add("keys match " + text(o.vals["pattern"]))
		} else {
			add("keys: " + literal(v))
		}
	}
	if v, ok := take("additionalProperties"); ok {
		add("values: " + summary(v))
	}
	if v, ok := take("const"); ok {
		add("always " + literal(v))
	}
	if v, ok := take("enum"); ok {
		add("one of " + joinLiterals(v))
	}
	if v, ok := take("default"); ok {
		add("default: " + literal(v))
	}
	if v, ok := take("examples"); ok {
		add("e.g. " + joinLiterals(v))
	}
	if v, ok := take("deprecated"); ok && v == true {
		add("deprecated")
	}
	rest := make([]string, 0, len(removed))
	for k := range removed {
		rest = append(rest, k)
	}
	slices.Sort(rest)
	for _, k := range rest {
		add(k + ": " + literal(removed[k]))
	}
	return strings.Join(out, "; ")
}

// rangePhrase renders a min/max pair: "1–64 chars", "at least 1 char", "at most 10 items".
func rangePhrase(take func(string) (any, bool), minKey, maxKey, one, many string) string {
	lo, hasLo := take(minKey)
	hi, hasHi := take(maxKey)
	unit := func(v any) string {
		if number(v) == "1" {
			return one
		}
		return many
	}
	switch {
	case hasLo && hasHi && number(lo) == number(hi):
		return "exactly " + number(lo) + " " + unit(lo)
	case hasLo && hasHi:
		return number(lo) + "–" + number(hi) + " " + many
	case hasLo:
		return "at least " + number(lo) + " " + unit(lo)
	case hasHi:
		return "at most " + number(hi) + " " + unit(hi)
	}
	return ""
}

func number(v any) string {
	if n, ok := v.(json.Number); ok {
		return n.String()
	}
	return literal(v)
}

func text(v any) string {
	if s, ok := v.(string); ok {
		return s
	}
	return literal(v)
}

func joinLiterals(v any) string {
	list, ok := v.([]any)
	if !ok {
		return literal(v)
	}
	parts := make([]string, len(list))
	for i, e := range list {
		parts[i] = literal(e)
	}
	return strings.Join(parts, ", ")
}

// summary names the kind of value a schema describes, for "values: string".
func summary(v any) string {
	n, ok := v.(*object)
	if !ok {
		return literal(v)
	}
	if t := types(n); len(t) > 0 {
		return strings.Join(t, " or ")
	}
	if r := n.str("$ref"); r != "" {
		return strings.TrimPrefix(refPointer(r), "/$defs/")
	}
	return "any JSON value"
}

// appendNote adds a parenthesised note to n's description, creating it when n has none.
func appendNote(n *object, note string) {
	if d := strings.TrimSpace(n.str("description")); d != "" {
		n.set("description", d+" ("+note+")")
		return
	}
	n.set("description", "("+note+")")
}
