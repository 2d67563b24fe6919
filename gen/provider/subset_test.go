package provider_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"sort"
	"strings"
)

// The checkers below restate the providers' published rules (reference/providers.md §6.1)
// independently of the converters, and return every violation with its path.

type checker struct {
	problems []string
}

func (c *checker) errorf(path, format string, args ...any) {
	c.problems = append(c.problems, path+": "+fmt.Sprintf(format, args...))
}

func decodeSchema(b []byte) map[string]any {
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		return nil
	}
	return m
}

func keysOf(m map[string]any) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

func typeList(n map[string]any) []string {
	switch t := n["type"].(type) {
	case string:
		return []string{t}
	case []any:
		var out []string
		for _, e := range t {
			s, _ := e.(string)
			out = append(out, s)
		}
		return out
	}
	return nil
}

// children calls fn for each subschema of n with its path.
func children(n map[string]any, path string, fn func(map[string]any, string)) {
	for _, kw := range []string{"properties", "$defs"} {
		if m, ok := n[kw].(map[string]any); ok {
			for _, k := range keysOf(m) {
				if c, ok := m[k].(map[string]any); ok {
					fn(c, path+"/"+kw+"/"+k)
				}
			}
		}
	}
	for _, kw := range []string{"items", "additionalProperties", "propertyNames"} {
		if c, ok := n[kw].(map[string]any); ok {
			fn(c, path+"/"+kw)
		}
	}
	for _, kw := range []string{"anyOf", "oneOf", "allOf"} {
		if list, ok := n[kw].([]any); ok {
			for i, b := range list {
				if c, ok := b.(map[string]any); ok {
					fn(c, fmt.Sprintf("%s/%s/%d", path, kw, i))
				}
			}
		}
	}
}

var openAIAllowed = map[string]bool{"type": true, "enum": true, "const": true, "anyOf": true, "pattern": true,
	"format": true, "multipleOf": true, "maximum": true, "exclusiveMaximum": true, "minimum": true,
	"exclusiveMinimum": true, "minItems": true, "maxItems": true, "properties": true, "required": true,
	"additionalProperties": true, "items": true, "$ref": true, "$defs": true, "description": true, "title": true}

var openAIFormatList = []string{"date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid"}

// checkOpenAIStrict applies the OpenAI strict-mode rules of §1.5 and §6.1.
func checkOpenAIStrict(schema []byte) []string {
	root := decodeSchema(schema)
	c := &checker{}
	if root == nil {
		return []string{"not a JSON object"}
	}
	if !slices.Equal(typeList(root), []string{"object"}) || root["anyOf"] != nil {
		c.errorf("", "root must be type object without anyOf")
	}
	props, enums, depth := 0, 0, 0
	var walk func(n map[string]any, path string, level int)
	walk = func(n map[string]any, path string, level int) {
		for _, k := range keysOf(n) {
			if !openAIAllowed[k] {
				c.errorf(path, "keyword %q is not supported", k)
			}
		}
		if ref, ok := n["$ref"].(string); ok {
			if len(n) > 1 {
				c.errorf(path, "$ref has siblings %v", keysOf(n))
			}
			if ref != "#" && !strings.HasPrefix(ref, "#/$defs/") {
				c.errorf(path, "$ref %q is not local", ref)
			}
		} else if n["type"] == nil && n["anyOf"] == nil && n["enum"] == nil && n["const"] == nil {
			c.errorf(path, "no type")
		}
		if f, ok := n["format"].(string); ok && !slices.Contains(openAIFormatList, f) {
			c.errorf(path, "format %q is not supported", f)
		}
		if e, ok := n["enum"].([]any); ok {
			enums += len(e)
		}
		if slices.Contains(typeList(n), "object") {
			if n["additionalProperties"] != false {
				c.errorf(path, "additionalProperties must be false, is %v", n["additionalProperties"])
			}
			p, _ := n["properties"].(map[string]any)
			props += len(p)
			level++
			depth = max(depth, level)
			var req []string
			list, ok := n["required"].([]any)
			if !ok {
				c.errorf(path, "required is missing")
			}
			for _, r := range list {
				s, _ := r.(string)
				req = append(req, s)
			}
			sort.Strings(req)
			if !slices.Equal(req, keysOf(p)) {
				c.errorf(path, "required %v must list every property %v", req, keysOf(p))
			}
		}
		children(n, path, func(m map[string]any, p string) { walk(m, p, level) })
	}
	walk(root, "", 0)
	if props > 5000 || depth > 10 || enums > 1000 {
		c.errorf("", "over the limits: %d properties, %d levels, %d enum values", props, depth, enums)
	}
	return c.problems
}

var geminiParametersAllowed = map[string]bool{"type": true, "format": true, "title": true, "description": true,
	"nullable": true, "enum": true, "properties": true, "required": true, "propertyOrdering": true, "items": true,
	"minItems": true, "maxItems": true, "minLength": true, "maxLength": true, "pattern": true, "minimum": true,
	"maximum": true, "minProperties": true, "maxProperties": true, "anyOf": true, "default": true, "example": true}

var geminiPropertyName = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_]{0,63}$`)

// checkGeminiParameters applies the rules of Gemini's Schema (§3.1): its fields only, one
// type (never null), string enums, no $ref/$defs/additionalProperties/const/oneOf/allOf.
func checkGeminiParameters(schema []byte) []string {
	root := decodeSchema(schema)
	c := &checker{}
	if root == nil {
		return []string{"not a JSON object"}
	}
	var walk func(n map[string]any, path string)
	walk = func(n map[string]any, path string) {
		for _, k := range keysOf(n) {
			if !geminiParametersAllowed[k] {
				c.errorf(path, "field %q is not in Schema", k)
			}
		}
		if t, ok := n["type"]; ok {
			s, isString := t.(string)
			if !isString || s == "null" {
				c.errorf(path, "type must be one non-null type, is %v", t)
			}
		}
		if e, ok := n["enum"].([]any); ok {
			for _, v := range e {
				if _, ok := v.(string); !ok {
					c.errorf(path, "enum value %v is not a string", v)
				}
			}
		}
		checkNames(c, n, path)
		children(n, path, walk)
	}
	walk(root, "")
	return c.problems
}

var geminiJSONSchemaAllowed = map[string]bool{"$id": true, "$defs": true, "$ref": true, "$anchor": true,
	"type": true, "format": true, "title": true, "description": true, "enum": true, "items": true,
	"prefixItems": true, "minItems": true, "maxItems": true, "minimum": true, "maximum": true, "anyOf": true,
	"oneOf": true, "properties": true, "additionalProperties": true, "required": true, "propertyOrdering": true}

// checkGeminiJSONSchema applies the parametersJsonSchema rules: the listed keywords, a $ref
// with only $-siblings, enum values strings or numbers.
func checkGeminiJSONSchema(schema []byte) []string {
	root := decodeSchema(schema)
	c := &checker{}
	if root == nil {
		return []string{"not a JSON object"}
	}
	var walk func(n map[string]any, path string)
	walk = func(n map[string]any, path string) {
		for _, k := range keysOf(n) {
			if !geminiJSONSchemaAllowed[k] {
				c.errorf(path, "keyword %q is not supported", k)
			}
			if n["$ref"] != nil && !strings.HasPrefix(k, "$") {
				c.errorf(path, "$ref has sibling %q", k)
			}
		}
		if e, ok := n["enum"].([]any); ok {
			for _, v := range e {
				switch v.(type) {
				case string, float64:
				default:
					c.errorf(path, "enum value %v is not a string or number", v)
				}
			}
		}
		checkNames(c, n, path)
		children(n, path, walk)
	}
	walk(root, "")
	return c.problems
}

func checkNames(c *checker, n map[string]any, path string) {
	p, _ := n["properties"].(map[string]any)
	for _, k := range keysOf(p) {
		if !geminiPropertyName.MatchString(k) {
			c.errorf(path, "property name %q breaks Gemini's rule", k)
		}
	}
	if req, ok := n["required"].([]any); ok {
		for _, r := range req {
			if s, _ := r.(string); p == nil || p[s] == nil {
				c.errorf(path, "required %q is not a property", s)
			}
		}
	}
}

var anthropicAllowed = map[string]bool{"$ref": true, "$defs": true, "type": true, "anyOf": true, "allOf": true,
	"description": true, "title": true, "enum": true, "const": true, "properties": true,
	"additionalProperties": true, "required": true, "items": true, "minItems": true, "format": true,
	"pattern": true, "default": true}

// checkAnthropicStrict applies the strict tool use rules of §2.2.
func checkAnthropicStrict(schema []byte) []string {
	root := decodeSchema(schema)
	c := &checker{}
	if root == nil {
		return []string{"not a JSON object"}
	}
	var walk func(n map[string]any, path string)
	walk = func(n map[string]any, path string) {
		for _, k := range keysOf(n) {
			if !anthropicAllowed[k] {
				c.errorf(path, "keyword %q is not supported", k)
			}
		}
		if n["$ref"] == "#" {
			c.errorf(path, "recursion")
		}
		if m, ok := n["minItems"].(float64); ok && m > 1 {
			c.errorf(path, "minItems %v", m)
		}
		if slices.Contains(typeList(n), "object") && n["additionalProperties"] != false {
			c.errorf(path, "additionalProperties must be false")
		}
		children(n, path, walk)
	}
	walk(root, "")
	return c.problems
}
