package mount

import (
	"bytes"
	"encoding/json"
	"slices"
)

// dropNullOptionals returns args without the top-level properties that are null, not
// required by schema and not allowed to be null by their own schema: for a mounted tool,
// null for an optional argument means "not given". Clients send it so (the go-sdk client for
// a nil pointer, a model for "no value"), MCP reads a null parameter as one not provided
// (SEP-2243 omits its header either way), and the server then sees the argument left out,
// its default applying, rather than the call being refused for a null no schema allows. A
// required argument, or one whose schema allows null ("type": [..., "null"], or no type),
// keeps its null. Args that are not an object, or that have no such null, come back as they
// are.
func dropNullOptionals(args []byte, schema json.RawMessage) []byte {
	if !bytes.Contains(args, []byte("null")) {
		return args
	}
	var obj map[string]json.RawMessage
	if json.Unmarshal(args, &obj) != nil || obj == nil {
		return args
	}
	var s struct {
		Required   []string                   `json:"required"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if json.Unmarshal(schema, &s) != nil {
		return args
	}
	dropped := false
	for name, v := range obj {
		if string(bytes.TrimSpace(v)) != "null" || slices.Contains(s.Required, name) || allowsNull(s.Properties[name]) {
			continue
		}
		delete(obj, name)
		dropped = true
	}
	if !dropped {
		return args
	}
	out, err := json.Marshal(obj)
	if err != nil {
		return args
	}
	return out
}

// allowsNull reports whether a property's schema admits null: it names the type null, or no
// type at all (or is not a schema this reads, or is absent: a property the schema does not
// describe keeps its null, for the validator to judge).
func allowsNull(prop json.RawMessage) bool {
	var p struct {
		Type json.RawMessage `json:"type"`
	}
	if json.Unmarshal(prop, &p) != nil || p.Type == nil {
		return true
	}
	var one string
	if json.Unmarshal(p.Type, &one) == nil {
		return one == "null"
	}
	var many []string
	if json.Unmarshal(p.Type, &many) == nil {
		return slices.Contains(many, "null")
	}
	return true
}
