package xmlcall

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
)

// markdownHead tells a model how to call tools in the <name>/<params> layout.
const markdownHead = `To use a tool, write a tool call in your reply, in this form:

<tool_call>
  <name>TOOL_NAME</name>
  <params>
    <PARAMETER_NAME><![CDATA[VALUE]]></PARAMETER_NAME>
  </params>
</tool_call>

## Tools
`

// markdownNotes closes InstructionsMarkdown.
const markdownNotes = `
## Notes

- Wrap each value in <![CDATA[ and ]]> so it is kept exactly as written, markup included.
- Write strings as plain text, numbers as digits, booleans as true or false, null as null, and arrays and objects as JSON.
- Leave out optional parameters you do not need: their default applies.
- Write the call without a Markdown code fence around it.
- You may write several tool calls in one reply; they may run at the same time. Then stop: the results come back in <tool_result> elements, one per call, in order.
`

// InstructionsMarkdown renders the tool instructions in the layout XML agents commonly use:
// how to write a call in the <name>/<params> form, then for each tool a "### name" section
// with "Description:", the detail, a "Parameters:" list (- name: type (required|optional) -
// description, with "Default:" lines), an example call with every parameter, whose values
// are placeholders made from the schema (the first enum value, the default, a value of the format, the minimum),
// the tool's own examples, and notes at the end. It tells the same facts as Instructions.
//
// Like Instructions, the output depends only on tools, in the order given.
func InstructionsMarkdown(tools []runtime.Tool) string {
	var b strings.Builder
	b.WriteString(markdownHead)
	for _, t := range tools {
		b.WriteByte('\n')
		writeMarkdownTool(&b, t)
	}
	b.WriteString(markdownNotes)
	return b.String()
}

func writeMarkdownTool(b *strings.Builder, t runtime.Tool) {
	b.WriteString("### " + t.Name + "\n")
	if t.Description != "" {
		b.WriteString("Description: " + oneLine(t.Description) + "\n")
	}
	for _, w := range t.Warnings {
		b.WriteString("Warning: " + oneLine(w) + "\n")
	}
	if t.Detail != "" {
		b.WriteString(t.Detail + "\n")
	}
	params, err := disclosure.Parameters(t.InputSchema)
	if err != nil {
		b.WriteString("Input schema: " + string(t.InputSchema) + "\n")
	}
	if len(params) == 0 && err == nil {
		b.WriteString("Parameters: none\n")
	} else if len(params) > 0 {
		b.WriteString("Parameters:\n")
	}
	example := Call{Name: t.Name}
	for _, p := range params {
		need := "optional"
		if p.Required {
			need = "required"
		}
		b.WriteString("- " + p.Name + ": " + p.Type + " (" + need + ")")
		desc := oneLine(p.Description)
		if p.Structured {
			if desc != "" {
				desc += " "
			}
			desc += "JSON Schema: " + string(withoutDescription(p.Schema))
		}
		if desc != "" {
			b.WriteString(" - " + desc)
		}
		b.WriteByte('\n')
		if p.Default != nil {
			b.WriteString("  Default: " + valueText(p.Default) + "\n")
		}
		example.Params = append(example.Params, Param{Name: p.Name, Value: placeholder(p)})
	}
	if defs := definitions(t.InputSchema); defs != nil {
		b.WriteString("Definitions: " + string(defs) + "\n")
	}
	b.WriteString("Example:\n")
	writeSeedCall(b, example)
	for _, e := range t.Examples {
		call, ok := exampleCall(t.Name, e.Args)
		if !ok {
			continue
		}
		b.WriteString("Example")
		if e.Scenario != "" {
			b.WriteString(" (" + oneLine(e.Scenario) + ")")
		}
		b.WriteString(":\n")
		writeSeedCall(b, call)
		if e.Expected != "" {
			b.WriteString("Expected: " + oneLine(e.Expected) + "\n")
		}
	}
}

// writeSeedCall writes c in the <name>/<params> layout, every value in CDATA.
func writeSeedCall(b *strings.Builder, c Call) {
	b.WriteString("<tool_call>\n  <name>" + escapeText(c.Name) + "</name>\n  <params>\n")
	for _, p := range c.Params {
		b.WriteString("    <" + p.Name + ">")
		writeCDATA(b, p.Value)
		b.WriteString("</" + p.Name + ">\n")
	}
	b.WriteString("  </params>\n</tool_call>\n")
}

// placeholder is a value for p in an example call, made from its schema: an example or
// default the schema gives, its first enum value, a value of its format, or one of its type.
func placeholder(p disclosure.Parameter) string {
	var s map[string]json.RawMessage
	_ = json.Unmarshal(p.Schema, &s)
	for _, k := range []string{"examples", "example", "default"} {
		raw, ok := s[k]
		if !ok {
			continue
		}
		if k == "examples" {
			var list []json.RawMessage
			if json.Unmarshal(raw, &list) != nil || len(list) == 0 {
				continue
			}
			raw = list[0]
		}
		return valueText(compact(raw))
	}
	if len(p.Enum) > 0 {
		return valueText(p.Enum[0])
	}
	var format string
	_ = json.Unmarshal(s["format"], &format)
	if v, ok := formatExamples[format]; ok {
		return v
	}
	var minimum json.RawMessage = s["minimum"]
	types := p.Types
	if len(types) == 0 {
		return "VALUE"
	}
	switch types[0] {
	case "integer":
		if minimum != nil {
			return string(minimum)
		}
		return "1"
	case "number":
		if minimum != nil {
			return string(minimum)
		}
		return "1.5"
	case "boolean":
		return "true"
	case "array":
		return "[]"
	case "object":
		return "{}"
	case "null":
		return "null"
	}
	return strings.ToUpper(p.Name)
}

// formatExamples are placeholder values of the string formats toolgen asserts.
var formatExamples = map[string]string{
	"date-time": "2026-01-31T09:30:00Z",
	"date":      "2026-01-31",
	"time":      "09:30:00Z",
	"duration":  "P1D",
	"email":     "user@example.com",
	"hostname":  "example.com",
	"ipv4":      "192.0.2.1",
	"ipv6":      "2001:db8::1",
	"uri":       "https://example.com/",
	"uuid":      "123e4567-e89b-12d3-a456-426614174000",

	"idn-hostname":  "bücher.example",
	"uri-reference": "/path",
	"iri":           "https://example.com/café",
	"iri-reference": "/café",
}

func compact(raw json.RawMessage) json.RawMessage {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return raw
	}
	return b.Bytes()
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
