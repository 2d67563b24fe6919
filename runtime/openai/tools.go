package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Declaration is one tool as OpenAI receives it, whichever API carries it. The fields after
// Strict exist on the Responses API only; Chat Completions has no place for them.
type Declaration struct {
	Name        string
	Description string
	Schema      json.RawMessage // the OpenAI variant of the input schema
	Strict      bool

	DeferLoading   bool            // //tool:defer: OpenAI's tool search loads it when needed
	AllowedCallers []string        // //tool:callers: "direct", "programmatic"
	OutputSchema   json.RawMessage // the schema of a structured result, for code callers (//tool:callers code)
	Namespace      string          // //tool:namespace: declared inside that namespace
	// PackageDescription is the tool's package description (//tool:description in the
	// package doc comment), which describes its namespace (NamespaceDescriptions).
	PackageDescription string
}

// maxNameLength is OpenAI's limit on a function name.
const maxNameLength = 64

// Declarations reads the OpenAI variant of every tool, refusing the whole set when one lacks
// it: a tool silently left out would be a tool the model never hears of.
func Declarations(tools []runtime.Tool) ([]Declaration, error) {
	out := make([]Declaration, 0, len(tools))
	for _, t := range tools {
		v, ok := t.Variant(variant.OpenAI)
		if !ok || len(v.Schema) == 0 {
			return nil, fmt.Errorf("openai: tool %q has no %q schema variant: regenerate it with toolgen -providers including openai", t.Name, variant.OpenAI)
		}
		if len(t.Name) > maxNameLength {
			return nil, fmt.Errorf("openai: tool %q: OpenAI refuses function names over %d characters", t.Name, maxNameLength)
		}
		out = append(out, Declaration{
			Name: t.Name, Description: t.ModelDescription(), Schema: v.Schema, Strict: v.Strict,
			DeferLoading: t.Deferred, AllowedCallers: AllowedCallers(t.Callers),
			Namespace: t.Namespace, PackageDescription: t.PackageDescription,
		})
		if t.Callers.Code {
			// Code the model writes needs the result's shape; a direct call shows the model
			// the result itself, so the schema would only cost context in every request.
			out[len(out)-1].OutputSchema = variant.WithoutSchemaKeyword(t.OutputSchema)
		}
	}
	return out, nil
}

// AllowedCallers is OpenAI's allowed_callers for c: "direct" and "programmatic" (code the
// model runs); nil leaves the default (direct calls only).
func AllowedCallers(c runtime.Callers) []string {
	var out []string
	if c.Direct {
		out = append(out, "direct")
	}
	if c.Code {
		out = append(out, "programmatic")
	}
	return out
}

// NamespaceDescription is the description a namespace is declared with when no tool of it
// brings its package's (Declaration.PackageDescription): OpenAI requires one, and the tools
// it holds then say best what it is for.
func NamespaceDescription(name string, tools []string) string {
	return fmt.Sprintf("The %s tools: %s.", name, strings.Join(tools, ", "))
}

// NamespaceDescriptions returns the description of each namespace of decls: the package
// description of its first tool that has one (a package's //tool:description says what its
// tools are for together), else NamespaceDescription of its tools.
func NamespaceDescriptions(decls []Declaration) map[string]string {
	out := map[string]string{}
	members := map[string][]string{}
	for _, d := range decls {
		if d.Namespace == "" {
			continue
		}
		members[d.Namespace] = append(members[d.Namespace], d.Name)
		if _, set := out[d.Namespace]; !set && d.PackageDescription != "" {
			out[d.Namespace] = d.PackageDescription
		}
	}
	for ns, names := range members {
		if _, set := out[ns]; !set {
			out[ns] = NamespaceDescription(ns, names)
		}
	}
	return out
}

// HasDeferred reports whether a declaration is deferred: the request then needs OpenAI's
// hosted tool_search, which ResponsesToolsJSON adds.
func HasDeferred(decls []Declaration) bool {
	for _, d := range decls {
		if d.DeferLoading {
			return true
		}
	}
	return false
}

// chatTool is a Chat Completions tool on the wire.
type chatTool struct {
	Type     string      `json:"type"`
	Function functionDef `json:"function"`
}

type functionDef struct {
	Name        string          `json:"name"`
	Description string          `json:"description,omitempty"`
	Parameters  json.RawMessage `json:"parameters"`
	Strict      bool            `json:"strict"`
}

// responsesTool is a Responses tool on the wire: the same fields, flat, and the Responses-only
// ones.
type responsesTool struct {
	Type           string          `json:"type"`
	Name           string          `json:"name"`
	Description    string          `json:"description,omitempty"`
	Parameters     json.RawMessage `json:"parameters"`
	Strict         bool            `json:"strict"`
	DeferLoading   bool            `json:"defer_loading,omitempty"`
	AllowedCallers []string        `json:"allowed_callers,omitempty"`
	OutputSchema   json.RawMessage `json:"output_schema,omitempty"`
}

// responsesNamespace groups the functions of one //tool:namespace.
type responsesNamespace struct {
	Type        string          `json:"type"`
	Name        string          `json:"name"`
	Description string          `json:"description"`
	Tools       []responsesTool `json:"tools"`
}

// ChatToolsJSON returns the "tools" array of a Chat Completions request declaring tools:
// [{"type":"function","function":{"name","description","parameters","strict"}}].
func ChatToolsJSON(tools []runtime.Tool) ([]byte, error) {
	decls, err := Declarations(tools)
	if err != nil {
		return nil, err
	}
	wire := make([]chatTool, len(decls))
	for i, d := range decls {
		wire[i] = chatTool{Type: "function", Function: functionDef{Name: d.Name, Description: d.Description, Parameters: d.Schema, Strict: d.Strict}}
	}
	return json.Marshal(wire)
}

// ResponsesToolsJSON returns the "tools" array of a Responses request declaring tools:
// [{"type":"function","name","description","parameters","strict"}], with defer_loading,
// allowed_callers and output_schema where the directives ask for them. Tools of a
// //tool:namespace are declared inside {"type":"namespace","name","description","tools"}, at
// the place of the first of them; when any tool is deferred, OpenAI's hosted
// {"type":"tool_search"} comes last, so the model can load them.
func ResponsesToolsJSON(tools []runtime.Tool) ([]byte, error) {
	decls, err := Declarations(tools)
	if err != nil {
		return nil, err
	}
	var wire []any
	spaces := map[string]*responsesNamespace{}
	for _, d := range decls {
		fn := responsesTool{Type: "function", Name: d.Name, Description: d.Description, Parameters: d.Schema, Strict: d.Strict,
			DeferLoading: d.DeferLoading, AllowedCallers: d.AllowedCallers, OutputSchema: d.OutputSchema}
		if d.Namespace == "" {
			wire = append(wire, fn)
			continue
		}
		ns := spaces[d.Namespace]
		if ns == nil {
			ns = &responsesNamespace{Type: "namespace", Name: d.Namespace}
			spaces[d.Namespace] = ns
			wire = append(wire, ns)
		}
		ns.Tools = append(ns.Tools, fn)
	}
	descriptions := NamespaceDescriptions(decls)
	for _, ns := range spaces {
		ns.Description = descriptions[ns.Name]
	}
	if HasDeferred(decls) {
		wire = append(wire, map[string]string{"type": "tool_search"})
	}
	if wire == nil {
		wire = []any{}
	}
	return json.Marshal(wire)
}
