package schematool

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"time"

	"go.yaml.in/yaml/v3"

	"github.com/toolgen-go/toolgen/runtime"
)

// Spec is a tool described as data, the way the seed systems write their tools (a name, a
// description, the parameters' schema and a few policies), read from JSON or YAML by
// LoadSpec. Its Tool method makes the runtime.Tool.
type Spec struct {
	Name        string
	Description string
	// Parameters is the input schema ("parameters"; "input_schema" and "inputSchema" are
	// read as the same key).
	Parameters json.RawMessage
	// Timeout is "timeout": a Go duration such as "30s", or a number of milliseconds (as
	// BeamAI writes it: 30000).
	Timeout    time.Duration
	Retry      runtime.RetryPolicy // "retry": {"max", "delay", "backoff", "max_delay"}
	Tags       []string            // "tags", and BeamAI's "tag" (one tag) added to them
	Permission runtime.Permission  // "permission": "auto" (the default) or "confirm"
	// Metadata is "metadata", free data for the host (runtime.Tool.Metadata): a value that
	// is not a string is kept as its JSON text.
	Metadata map[string]string
	// Filters is "filters", the registry filters (middleware registered by name) the tool's
	// calls pass through (runtime.Tool.Filters).
	Filters []string

	// The keys of an OpenAkita tool dict, each onto the runtime.Tool field of its name:
	// "category", "detail", "triggers", "examples" ([{"scenario", "params", "expected"}]),
	// "warnings", "workflow" (steps: strings, or {"name", "tool", "condition"} objects),
	// "prerequisites" (strings or {"condition", "check", "else"}) and
	// "related_tools" ([{"name", "relation"}]). ExportOpenAkita writes them back.
	Category      string
	Detail        string
	Triggers      []string
	Examples      []runtime.Example
	Warnings      []string
	Workflow      []runtime.WorkflowStep
	Prerequisites []runtime.Prerequisite
	Related       []runtime.Related
}

// MaxSpecBytes bounds a spec document.
const MaxSpecBytes = MaxSchemaBytes + 64<<10

var specKeys = []string{"name", "description", "parameters", "input_schema", "inputSchema", "timeout", "retry", "tags", "tag", "permission", "metadata", "filters",
	"category", "detail", "triggers", "examples", "warnings", "workflow", "prerequisites", "related_tools"}

// LoadSpec reads a spec from JSON or YAML (a document whose first character is '{' is JSON).
// Unknown keys are errors, with the key probably meant; the schema is checked when the tool
// is made (Spec.Tool).
func LoadSpec(data []byte) (Spec, error) {
	if len(data) > MaxSpecBytes {
		return Spec{}, fmt.Errorf("spec: %d bytes, more than the %d allowed", len(data), MaxSpecBytes)
	}
	doc := data
	if t := bytes.TrimSpace(data); len(t) == 0 || t[0] != '{' {
		var err error
		if doc, err = yamlToJSON(data); err != nil {
			return Spec{}, fmt.Errorf("spec: %w", err)
		}
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal(doc, &m); err != nil {
		return Spec{}, fmt.Errorf("spec: must be an object: %v", err)
	}
	var s Spec
	field := func(key string, v any) error {
		raw, ok := m[key]
		if !ok {
			return nil
		}
		if err := json.Unmarshal(raw, v); err != nil {
			return fmt.Errorf("spec: %s: %v", key, err)
		}
		return nil
	}
	for key := range m {
		if !slices.Contains(specKeys, key) {
			return Spec{}, fmt.Errorf("spec: unknown key %q%s", key, didYouMean(key, specKeys))
		}
	}
	var timeout json.RawMessage
	var tag string
	var metadata map[string]json.RawMessage
	var retry struct {
		Max      int     `json:"max"`
		Delay    string  `json:"delay"`
		Backoff  float64 `json:"backoff"`
		MaxDelay string  `json:"max_delay"`
	}
	for _, f := range []struct {
		key string
		v   any
	}{{"name", &s.Name}, {"description", &s.Description}, {"timeout", &timeout}, {"tags", &s.Tags}, {"tag", &tag}, {"permission", &s.Permission}, {"metadata", &metadata}, {"filters", &s.Filters},
		{"category", &s.Category}, {"detail", &s.Detail}, {"triggers", &s.Triggers}, {"warnings", &s.Warnings}} {
		if err := field(f.key, f.v); err != nil {
			return Spec{}, err
		}
	}
	for _, key := range []string{"parameters", "input_schema", "inputSchema"} {
		if raw, ok := m[key]; ok {
			if s.Parameters != nil {
				return Spec{}, errors.New("spec: give the schema once, as parameters, input_schema or inputSchema")
			}
			s.Parameters = raw
		}
	}
	if err := readOpenAkitaLists(m, &s); err != nil {
		return Spec{}, err
	}
	if tag != "" && !slices.Contains(s.Tags, tag) {
		s.Tags = append(s.Tags, tag)
	}
	if len(metadata) > 0 {
		s.Metadata = make(map[string]string, len(metadata))
		for k, v := range metadata {
			var text string
			if json.Unmarshal(v, &text) != nil {
				text = string(compact(v))
			}
			s.Metadata[k] = text
		}
	}
	if s.Parameters != nil {
		p, err := requiredFlagsToList(s.Parameters, 0)
		if err != nil {
			return Spec{}, fmt.Errorf("spec: parameters: %w", err)
		}
		s.Parameters = p
	}
	if raw, ok := m["retry"]; ok {
		d := json.NewDecoder(bytes.NewReader(raw))
		d.DisallowUnknownFields()
		if err := d.Decode(&retry); err != nil {
			return Spec{}, fmt.Errorf("spec: retry: %v (keys: max, delay, backoff, max_delay)", err)
		}
		s.Retry = runtime.RetryPolicy{Max: retry.Max, Backoff: retry.Backoff}
		for _, d := range []struct {
			text string
			to   *time.Duration
		}{{retry.Delay, &s.Retry.Delay}, {retry.MaxDelay, &s.Retry.MaxDelay}} {
			if d.text == "" {
				continue
			}
			v, err := time.ParseDuration(d.text)
			if err != nil || v < 0 {
				return Spec{}, fmt.Errorf("spec: retry: %q is not a duration such as \"1s\"", d.text)
			}
			*d.to = v
		}
		if s.Retry.Max < 0 || s.Retry.Max > 10 || s.Retry.Backoff < 0 || math.IsNaN(s.Retry.Backoff) {
			return Spec{}, errors.New("spec: retry: max must be 0 to 10, backoff not negative")
		}
	}
	if timeout != nil {
		v, err := parseTimeout(timeout)
		if err != nil {
			return Spec{}, err
		}
		s.Timeout = v
	}
	switch s.Permission {
	case "", runtime.PermissionAuto, runtime.PermissionConfirm:
	default:
		return Spec{}, fmt.Errorf("spec: permission %q: must be %q or %q", s.Permission, runtime.PermissionAuto, runtime.PermissionConfirm)
	}
	if s.Parameters == nil {
		return Spec{}, errors.New("spec: no parameters (the input schema)")
	}
	return s, nil
}

// Tool makes the tool the spec describes, its calls run by handler (see New).
func (s Spec) Tool(handler Handler) (runtime.Tool, error) {
	t, err := New(s.Name, s.Description, s.Parameters, handler)
	if err != nil {
		return runtime.Tool{}, err
	}
	t.Timeout, t.Retry, t.Tags = s.Timeout, s.Retry, slices.Clone(s.Tags)
	t.Filters = slices.Clone(s.Filters)
	t.Category, t.Detail = s.Category, s.Detail
	t.Triggers, t.Warnings, t.Workflow = slices.Clone(s.Triggers), slices.Clone(s.Warnings), slices.Clone(s.Workflow)
	t.Examples, t.Prerequisites, t.Related = slices.Clone(s.Examples), slices.Clone(s.Prerequisites), slices.Clone(s.Related)
	if len(s.Metadata) > 0 {
		t.Metadata = maps.Clone(s.Metadata)
	}
	if s.Permission != "" {
		t.Permission = s.Permission
	}
	return t, nil
}

// maxYAMLNodes bounds the nodes of a YAML spec; aliases are refused, so a document cannot
// expand past its own size.
const maxYAMLNodes = 100_000

// yamlToJSON converts a YAML document to JSON, keeping the order of mappings (the order of
// properties is the order of the schema's fields, which problems follow).
func yamlToJSON(data []byte) ([]byte, error) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, err
	}
	var b bytes.Buffer
	nodes := 0
	var write func(n *yaml.Node, depth int) error
	write = func(n *yaml.Node, depth int) error {
		if nodes++; nodes > maxYAMLNodes || depth > MaxSchemaDepth*2 {
			return errors.New("the YAML document is too large or too deep")
		}
		switch n.Kind {
		case yaml.DocumentNode:
			if len(n.Content) != 1 {
				return errors.New("an empty YAML document")
			}
			return write(n.Content[0], depth)
		case yaml.MappingNode:
			b.WriteByte('{')
			for i := 0; i+1 < len(n.Content); i += 2 {
				if i > 0 {
					b.WriteByte(',')
				}
				k := n.Content[i]
				if k.Kind != yaml.ScalarNode {
					return fmt.Errorf("line %d: a key must be a string", k.Line)
				}
				key, _ := json.Marshal(k.Value)
				b.Write(key)
				b.WriteByte(':')
				if err := write(n.Content[i+1], depth+1); err != nil {
					return err
				}
			}
			b.WriteByte('}')
		case yaml.SequenceNode:
			b.WriteByte('[')
			for i, c := range n.Content {
				if i > 0 {
					b.WriteByte(',')
				}
				if err := write(c, depth+1); err != nil {
					return err
				}
			}
			b.WriteByte(']')
		case yaml.ScalarNode:
			return writeScalar(&b, n)
		default:
			return fmt.Errorf("line %d: aliases are not accepted", n.Line)
		}
		return nil
	}
	if err := write(&root, 0); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

func writeScalar(b *bytes.Buffer, n *yaml.Node) error {
	switch n.ShortTag() {
	case "!!null":
		b.WriteString("null")
	case "!!bool":
		var v bool
		if err := n.Decode(&v); err != nil {
			return err
		}
		b.WriteString(strconv.FormatBool(v))
	case "!!int", "!!float":
		// The number as written when JSON reads it so (1e3, 0.5); YAML's own forms (0x1F,
		// .inf) through their value.
		if json.Valid([]byte(n.Value)) {
			b.WriteString(n.Value)
			return nil
		}
		var v float64
		if err := n.Decode(&v); err != nil || math.IsInf(v, 0) || math.IsNaN(v) {
			return fmt.Errorf("line %d: %q is not a JSON number", n.Line, n.Value)
		}
		b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
	default:
		s, _ := json.Marshal(n.Value)
		b.Write(s)
	}
	return nil
}

// maxTimeout bounds a spec's timeout: a number larger than a day is more likely seconds or
// microseconds written as milliseconds than a timeout meant.
const maxTimeout = 24 * time.Hour

// parseTimeout reads "timeout": a Go duration ("30s") or a number of milliseconds (30000).
func parseTimeout(raw json.RawMessage) (time.Duration, error) {
	var text string
	if json.Unmarshal(raw, &text) == nil {
		v, err := time.ParseDuration(text)
		if err != nil || v <= 0 || v > maxTimeout {
			return 0, fmt.Errorf("spec: timeout %q is not a positive duration of at most 24h such as \"30s\"", text)
		}
		return v, nil
	}
	var ms float64
	if json.Unmarshal(raw, &ms) != nil || ms <= 0 || ms > float64(maxTimeout/time.Millisecond) || math.IsNaN(ms) {
		return 0, fmt.Errorf("spec: timeout %s is neither a duration such as \"30s\" nor a positive number of milliseconds of at most a day (30000 is 30s)", shown(raw))
	}
	return time.Duration(ms * float64(time.Millisecond)), nil
}

// requiredFlagsToList rewrites the per-parameter "required": true BeamAI writes (inside a
// property, as JSON Schema draft 3 did) into the object's "required" list, keeping the order
// of the members; a schema without such flags is returned unchanged. depth bounds the walk as
// Compile bounds the schema.
func requiredFlagsToList(schema json.RawMessage, depth int) (json.RawMessage, error) {
	if depth > MaxSchemaDepth {
		return nil, fmt.Errorf("nest more than %d deep", MaxSchemaDepth)
	}
	keys, vals, ok := orderedObject(schema)
	if !ok {
		return schema, nil
	}
	propsAt := slices.Index(keys, "properties")
	if propsAt < 0 {
		return schema, nil
	}
	names, props, ok := orderedObject(vals[propsAt])
	if !ok {
		return schema, nil
	}
	var required []string
	changed := false
	for i, name := range names {
		pk, pv, ok := orderedObject(props[i])
		if !ok {
			continue
		}
		if r := slices.Index(pk, "required"); r >= 0 {
			switch string(bytes.TrimSpace(pv[r])) {
			case "true":
				required = append(required, name)
				fallthrough
			case "false":
				pk, pv = slices.Delete(pk, r, r+1), slices.Delete(pv, r, r+1)
				changed = true
			}
		}
		inner, err := requiredFlagsToList(writeObject(pk, pv), depth+1)
		if err != nil {
			return nil, err
		}
		if !bytes.Equal(inner, props[i]) {
			props[i], changed = inner, true
		}
	}
	if !changed {
		return schema, nil
	}
	vals[propsAt] = writeObject(names, props)
	if len(required) > 0 {
		if r := slices.Index(keys, "required"); r >= 0 {
			var listed []string
			if json.Unmarshal(vals[r], &listed) != nil {
				return nil, errors.New(`"required" must be a list of names beside properties marked "required": true`)
			}
			for _, n := range required {
				if !slices.Contains(listed, n) {
					listed = append(listed, n)
				}
			}
			required = listed
			keys, vals = slices.Delete(keys, r, r+1), slices.Delete(vals, r, r+1)
		}
		list, _ := json.Marshal(required)
		keys, vals = append(keys, "required"), append(vals, list)
	}
	return writeObject(keys, vals), nil
}

// orderedObject splits a JSON object into its keys and values, in order; ok is false for
// anything that is not an object.
func orderedObject(raw json.RawMessage) (keys []string, vals []json.RawMessage, ok bool) {
	d := json.NewDecoder(bytes.NewReader(raw))
	if t, err := d.Token(); err != nil || t != json.Delim('{') {
		return nil, nil, false
	}
	for d.More() {
		t, err := d.Token()
		if err != nil {
			return nil, nil, false
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := d.Decode(&v); err != nil {
			return nil, nil, false
		}
		keys, vals = append(keys, key), append(vals, v)
	}
	return keys, vals, true
}

func writeObject(keys []string, vals []json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range keys {
		if i > 0 {
			b.WriteByte(',')
		}
		name, _ := json.Marshal(k)
		b.Write(name)
		b.WriteByte(':')
		b.Write(vals[i])
	}
	b.WriteByte('}')
	return b.Bytes()
}

// readOpenAkitaLists reads the structured keys of an OpenAkita tool dict into s.
func readOpenAkitaLists(m map[string]json.RawMessage, s *Spec) error {
	if raw, ok := m["examples"]; ok {
		var examples []struct {
			Scenario string          `json:"scenario"`
			Params   json.RawMessage `json:"params"`
			Args     json.RawMessage `json:"args"`
			Expected string          `json:"expected"`
		}
		if err := json.Unmarshal(raw, &examples); err != nil {
			return fmt.Errorf(`spec: examples: %v (a list of {"scenario", "params", "expected"})`, err)
		}
		for _, e := range examples {
			args := e.Params
			if args == nil {
				args = e.Args
			}
			s.Examples = append(s.Examples, runtime.Example{Scenario: e.Scenario, Args: args, Expected: e.Expected})
		}
	}
	if raw, ok := m["workflow"]; ok {
		var one string
		var steps []json.RawMessage
		switch {
		case json.Unmarshal(raw, &one) == nil:
			s.Workflow = []runtime.WorkflowStep{{Name: one}}
		case json.Unmarshal(raw, &steps) == nil:
			for i, st := range steps {
				var step runtime.WorkflowStep
				switch {
				case json.Unmarshal(st, &step.Name) == nil:
				case json.Unmarshal(st, &step) == nil && (step.Name != "" || step.Tool != ""):
				default:
					return fmt.Errorf(`spec: workflow step %d: must be a string or {"name", "tool", "condition"}`, i+1)
				}
				s.Workflow = append(s.Workflow, step)
			}
		default:
			return errors.New("spec: workflow: must be a string or a list of steps")
		}
	}
	if raw, ok := m["prerequisites"]; ok {
		var items []json.RawMessage
		if json.Unmarshal(raw, &items) != nil {
			return errors.New(`spec: prerequisites: must be a list of strings or {"condition", "check", "else"}`)
		}
		for i, it := range items {
			var p runtime.Prerequisite
			if json.Unmarshal(it, &p.Condition) != nil && (json.Unmarshal(it, &p) != nil || p.Condition == "") {
				return fmt.Errorf(`spec: prerequisite %d: must be a string or {"condition", "check", "else"}`, i+1)
			}
			s.Prerequisites = append(s.Prerequisites, p)
		}
	}
	if raw, ok := m["related_tools"]; ok {
		var related []struct {
			Name     string `json:"name"`
			Relation string `json:"relation"`
		}
		if err := json.Unmarshal(raw, &related); err != nil {
			return fmt.Errorf(`spec: related_tools: %v (a list of {"name", "relation"})`, err)
		}
		for _, r := range related {
			s.Related = append(s.Related, runtime.Related{Name: r.Name, Relation: r.Relation})
		}
	}
	return nil
}

// ExportOpenAkita writes t as an OpenAkita tool dict (JSON): name, category, description,
// detail, triggers, prerequisites, examples, warnings, workflow, related_tools and
// input_schema, each present when set. LoadSpec reads it back.
func ExportOpenAkita(t runtime.Tool) ([]byte, error) {
	type example struct {
		Scenario string          `json:"scenario,omitempty"`
		Params   json.RawMessage `json:"params,omitempty"`
		Expected string          `json:"expected,omitempty"`
	}
	type related struct {
		Name     string `json:"name"`
		Relation string `json:"relation,omitempty"`
	}
	d := struct {
		Name          string                 `json:"name"`
		Category      string                 `json:"category,omitempty"`
		Description   string                 `json:"description"`
		Detail        string                 `json:"detail,omitempty"`
		Triggers      []string               `json:"triggers,omitempty"`
		Prerequisites []runtime.Prerequisite `json:"prerequisites,omitempty"`
		Examples      []example              `json:"examples,omitempty"`
		Warnings      []string               `json:"warnings,omitempty"`
		Workflow      []any                  `json:"workflow,omitempty"`
		Related       []related              `json:"related_tools,omitempty"`
		InputSchema   json.RawMessage        `json:"input_schema"`
	}{Name: t.Name, Category: t.Category, Description: t.Description, Detail: t.Detail, Triggers: t.Triggers,
		Prerequisites: t.Prerequisites, Warnings: t.Warnings, InputSchema: t.InputSchema}
	for _, st := range t.Workflow {
		if st.Tool == "" && st.Condition == "" {
			d.Workflow = append(d.Workflow, st.Name) // OpenAkita's plain step
		} else {
			d.Workflow = append(d.Workflow, st)
		}
	}
	for _, e := range t.Examples {
		d.Examples = append(d.Examples, example{Scenario: e.Scenario, Params: e.Args, Expected: e.Expected})
	}
	for _, r := range t.Related {
		d.Related = append(d.Related, related{Name: r.Name, Relation: r.Relation})
	}
	if d.InputSchema == nil {
		return nil, fmt.Errorf("tool %q: no input schema to export", t.Name)
	}
	return json.Marshal(d)
}
