package xmlcall

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
)

// RenderCall writes c as a <tool_call> block that Parse reads back unchanged (ID included,
// when set; Raw, Recovered and Args, which only Parse fills, are not written). Values are
// written raw when they can be, entity-escaped when they hold < or & on one line, and as
// CDATA when they span lines around markup or start or end with white space.
func RenderCall(c Call) string {
	var b strings.Builder
	writeCall(&b, c)
	return b.String()
}

func writeCall(b *strings.Builder, c Call) {
	b.WriteString(`<tool_call name="`)
	b.WriteString(escapeAttr(c.Name))
	b.WriteString(`"`)
	if c.ID != "" {
		b.WriteString(` id="`)
		b.WriteString(escapeAttr(c.ID))
		b.WriteString(`"`)
	}
	if len(c.Params) == 0 {
		b.WriteString("/>")
		return
	}
	b.WriteString(">\n")
	for _, p := range c.Params {
		b.WriteString(`<parameter name="`)
		b.WriteString(escapeAttr(p.Name))
		b.WriteString(`">`)
		writeValue(b, p.Value)
		b.WriteString("</parameter>\n")
	}
	b.WriteString("</tool_call>")
}

// writeValue writes a parameter value so that Parse returns exactly v.
func writeValue(b *strings.Builder, v string) {
	outerSpace := v != "" && (isSpace(v[0]) || isSpace(v[len(v)-1]))
	markup := strings.ContainsAny(v, "<&")
	switch {
	case outerSpace || markup && strings.Contains(v, "\n"):
		writeCDATA(b, v)
	case markup:
		b.WriteString(escapeText(v))
	default:
		b.WriteString(v)
	}
}

// writeCDATA wraps v in CDATA, splitting any "]]>" across two sections.
func writeCDATA(b *strings.Builder, v string) {
	b.WriteString("<![CDATA[")
	b.WriteString(strings.ReplaceAll(v, "]]>", "]]]]><![CDATA[>"))
	b.WriteString("]]>")
}

var (
	// Text needs only & and < escaped for Parse and for XML; leaving > alone keeps "=>" and
	// JSON comparisons readable for the model.
	textEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;")
	attrEscaper = strings.NewReplacer("&", "&amp;", "<", "&lt;", ">", "&gt;", `"`, "&quot;",
		"\n", "&#10;", "\r", "&#13;", "\t", "&#9;")
)

func escapeText(s string) string { return textEscaper.Replace(s) }
func escapeAttr(s string) string { return attrEscaper.Replace(s) }

// RenderResult writes the result of call as a <tool_result> element for the model's next
// turn, with the call's name and id; a failed call gets error="true", and the text of a call
// the lenient reading recovered, or the registry repaired, starts with what was recovered or
// repaired. The text is entity-escaped, so a result can never
// close the element early or pass for a tool call.
func RenderResult(call Call, res runtime.Result) string {
	var b strings.Builder
	writeResult(&b, call, res)
	return b.String()
}

func writeResult(b *strings.Builder, call Call, res runtime.Result) {
	b.WriteString(`<tool_result`)
	if call.Name != "" {
		b.WriteString(` name="`)
		b.WriteString(escapeAttr(call.Name))
		b.WriteString(`"`)
	}
	if call.ID != "" {
		b.WriteString(` id="`)
		b.WriteString(escapeAttr(call.ID))
		b.WriteString(`"`)
	}
	if res.IsError {
		b.WriteString(` error="true"`)
	}
	b.WriteString(">\n")
	// The model learns what it got wrong, though the call ran.
	if len(call.Recovered) > 0 {
		b.WriteString(escapeText("Your tool call was not well formed and was read leniently: " +
			strings.Join(call.Recovered, "; ") + ".\n"))
	}
	if repairs, _ := res.Metadata[runtime.MetadataRepairs].([]runtime.Repair); len(repairs) > 0 {
		notes := make([]string, len(repairs))
		for i, r := range repairs {
			notes[i] = runtime.RepairMessage(r)
			if r.Path != "" {
				notes[i] = r.Path + ": " + notes[i]
			}
		}
		b.WriteString(escapeText("Your tool call was repaired before it ran: " + strings.Join(notes, "; ") + ".\n"))
	}
	b.WriteString(escapeText(res.Text))
	b.WriteString("\n</tool_result>")
}

// instructionsHead tells a model how to call tools; Instructions follows it with the tools.
const instructionsHead = `To use a tool, write a tool call in your reply, in this form:

<tool_call name="TOOL_NAME">
<parameter name="PARAMETER_NAME">VALUE</parameter>
</tool_call>

Rules:
- Write one <parameter> element per argument. Leave out optional parameters you do not need.
- Write strings as plain text, numbers as digits, booleans as true or false, null as null, and arrays and objects as JSON.
- In a value, write &lt; for < and &amp; for &, or wrap the value in <![CDATA[ and ]]> to keep it exactly as written.
- You may write several tool calls in one reply. Then stop: the results come back in <tool_result> elements, one per call.
`

// Instructions renders the tool instructions for a system prompt: how to write a call, then
// each tool with its name, description, detail, parameters (type, required, default,
// description) and its example calls in the XML form. A parameter with inner structure (an
// object, or an array of objects) also shows its JSON Schema, and a tool whose schema has
// $defs lists them once under <definitions>.
//
// The output depends only on tools, in the order given (Registry.Tools sorts by name), so a
// prompt built from it stays byte-identical between runs and keeps a provider's prompt cache
// warm.
func Instructions(tools []runtime.Tool) string {
	var b strings.Builder
	b.WriteString(instructionsHead)
	b.WriteString("\nTools:\n")
	for _, t := range tools {
		b.WriteByte('\n')
		writeTool(&b, t)
	}
	return b.String()
}

func writeTool(b *strings.Builder, t runtime.Tool) {
	b.WriteString(`<tool name="`)
	b.WriteString(escapeAttr(t.Name))
	b.WriteString("\">\n")
	if d := t.ModelDescription(); d != "" {
		element(b, "description", d)
	}
	if t.Detail != "" {
		element(b, "detail", t.Detail)
	}
	params, err := disclosure.Parameters(t.InputSchema)
	if err != nil {
		// A schema this package cannot read still reaches the model whole.
		element(b, "schema", string(t.InputSchema))
	}
	for _, p := range params {
		writeParam(b, p)
	}
	if defs := definitions(t.InputSchema); defs != nil {
		element(b, "definitions", string(defs))
	}
	for _, e := range t.Examples {
		call, ok := exampleCall(t.Name, e.Args)
		if !ok {
			continue
		}
		b.WriteString("<example")
		if e.Scenario != "" {
			b.WriteString(` scenario="`)
			b.WriteString(escapeAttr(e.Scenario))
			b.WriteString(`"`)
		}
		if e.Expected != "" {
			b.WriteString(` expected="`)
			b.WriteString(escapeAttr(e.Expected))
			b.WriteString(`"`)
		}
		b.WriteString(">\n")
		writeCall(b, call)
		b.WriteString("\n</example>\n")
	}
	b.WriteString("</tool>\n")
}

func writeParam(b *strings.Builder, p disclosure.Parameter) {
	b.WriteString(`<parameter name="`)
	b.WriteString(escapeAttr(p.Name))
	b.WriteString(`" type="`)
	b.WriteString(escapeAttr(p.Type))
	if p.Required {
		b.WriteString(`" required="true"`)
	} else {
		b.WriteString(`" required="false"`)
	}
	if p.Default != nil {
		b.WriteString(` default="`)
		b.WriteString(escapeAttr(valueText(p.Default)))
		b.WriteString(`"`)
	}
	b.WriteString(">")
	text := strings.Join(strings.Fields(p.Description), " ")
	if p.Structured {
		if text != "" {
			text += " "
		}
		text += "JSON Schema: " + string(withoutDescription(p.Schema))
	}
	b.WriteString(escapeText(text))
	b.WriteString("</parameter>\n")
}

func element(b *strings.Builder, name, text string) {
	b.WriteString("<" + name + ">")
	b.WriteString(escapeText(text))
	b.WriteString("</" + name + ">\n")
}

// valueText is how a JSON value is written as a parameter value: a string as its text,
// anything else as JSON.
func valueText(v json.RawMessage) string {
	var s string
	if len(v) > 0 && v[0] == '"' && json.Unmarshal(v, &s) == nil {
		return s
	}
	return string(v)
}

// exampleCall turns an example's JSON arguments into the call a model would write.
func exampleCall(name string, args json.RawMessage) (Call, bool) {
	call := Call{Name: name}
	if len(bytes.TrimSpace(args)) == 0 {
		return call, true
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return Call{}, false
	}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return Call{}, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return Call{}, false
		}
		var c bytes.Buffer
		if err := json.Compact(&c, v); err != nil {
			return Call{}, false
		}
		call.Params = append(call.Params, Param{Name: key, Value: valueText(c.Bytes())})
	}
	return call, true
}

// withoutDescription drops the top-level description of a parameter's schema, which the
// element's text already shows.
func withoutDescription(schema json.RawMessage) json.RawMessage {
	var m map[string]json.RawMessage
	if json.Unmarshal(schema, &m) != nil {
		return schema
	}
	if _, ok := m["description"]; !ok {
		return schema
	}
	// Re-encode from the document, keeping key order: cut the member out of the compact text.
	dec := json.NewDecoder(bytes.NewReader(schema))
	var out bytes.Buffer
	out.WriteByte('{')
	if _, err := dec.Token(); err != nil {
		return schema
	}
	first := true
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return schema
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return schema
		}
		if key == "description" {
			continue
		}
		if !first {
			out.WriteByte(',')
		}
		first = false
		k, _ := json.Marshal(key)
		out.Write(k)
		out.WriteByte(':')
		out.Write(v)
	}
	out.WriteByte('}')
	return out.Bytes()
}

// definitions returns the compact $defs of a schema, or nil.
func definitions(schema json.RawMessage) json.RawMessage {
	var root struct {
		Defs json.RawMessage `json:"$defs"`
	}
	if json.Unmarshal(schema, &root) != nil || len(root.Defs) == 0 {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, root.Defs) != nil {
		return nil
	}
	return b.Bytes()
}
