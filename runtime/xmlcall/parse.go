package xmlcall

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Call is one <tool_call> block of a model's reply.
type Call struct {
	// ID is the block's id attribute, else "call_N" for the N-th call of the reply.
	ID   string
	Name string
	// Params are the <parameter> elements, in the order written.
	Params []Param
	// Offset is the byte offset of the block's "<tool_call" in the reply.
	Offset int
}

// Param is one <parameter name="…">value</parameter> element. Value is the text with
// entities decoded and CDATA sections unwrapped; white space around it is dropped unless it
// sits inside a CDATA section or is written as a character reference.
type Param struct {
	Name  string
	Value string
}

// Reply is a model's reply split into its tool calls and its prose.
type Reply struct {
	Calls []Call
	// Text is the reply without its tool calls, trimmed: what the model says to the user.
	Text string
}

// SyntaxError reports a malformed <tool_call> block: where, in which call when its name was
// read, and what is wrong, worded for the model to correct it.
type SyntaxError struct {
	Offset int // byte offset in the reply
	Line   int // 1-based
	Column int // 1-based, in characters
	Tool   string
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// Parse splits a model's reply into tool calls and prose. It reads every <tool_call> block in
// order:
//
//	<tool_call name="get_weather">
//	<parameter name="city">Tokyo</parameter>
//	<parameter name="days">3</parameter>
//	</tool_call>
//
// A block may carry an id attribute and may be empty (<tool_call name="now"/>). A parameter
// value is raw text (it ends at </parameter>), entity-escaped text (&lt; &gt; &amp; &quot;
// &apos; and numeric references), CDATA sections, or a mix of them; an unknown entity is kept
// as written. Attributes other than name and id are ignored.
//
// A malformed block stops the parse: Parse returns the calls before it, the prose up to it,
// and a *SyntaxError. Parse never panics and runs in time linear in the reply's length.
func Parse(reply string) (Reply, error) {
	p := &parser{s: reply}
	var r Reply
	var text strings.Builder
	pos := 0
	for {
		start := p.findStart(pos, "tool_call")
		if start < 0 {
			text.WriteString(reply[pos:])
			break
		}
		text.WriteString(reply[pos:start])
		call, end, err := p.call(start)
		if err != nil {
			r.Text = strings.TrimSpace(text.String())
			return r, err
		}
		if call.ID == "" {
			call.ID = "call_" + strconv.Itoa(len(r.Calls)+1)
		}
		r.Calls = append(r.Calls, call)
		pos = end
	}
	r.Text = strings.TrimSpace(text.String())
	return r, nil
}

type parser struct {
	s string
}

// fail builds the error for the problem at off; tool names the call being read, if known.
func (p *parser) fail(off int, tool, format string, args ...any) *SyntaxError {
	off = min(max(off, 0), len(p.s))
	line := 1 + strings.Count(p.s[:off], "\n")
	lineStart := strings.LastIndexByte(p.s[:off], '\n') + 1
	return &SyntaxError{
		Offset: off,
		Line:   line,
		Column: utf8.RuneCountInString(p.s[lineStart:off]) + 1,
		Tool:   tool,
		Msg:    fmt.Sprintf(format, args...),
	}
}

// findStart returns the offset of the next start tag <tag at or after from, or -1. "<tag"
// must be followed by white space, ">" or "/", so <tool_calls> is prose, not a call.
func (p *parser) findStart(from int, tag string) int {
	open := "<" + tag
	for from <= len(p.s) {
		i := strings.Index(p.s[from:], open)
		if i < 0 {
			return -1
		}
		at := from + i
		if p.isStart(at, tag) {
			return at
		}
		from = at + 1
	}
	return -1
}

// isStart reports whether a start tag <tag begins at off.
func (p *parser) isStart(off int, tag string) bool {
	rest := p.s[off:]
	if !strings.HasPrefix(rest, "<") || !strings.HasPrefix(rest[1:], tag) {
		return false
	}
	after := 1 + len(tag)
	if after == len(rest) {
		return true // a truncated reply: still the start of the tag
	}
	c := rest[after]
	return isSpace(c) || c == '>' || c == '/'
}

// closeTag returns the offset after the end tag </tag> (white space allowed before ">") at
// off, or -1 when there is none.
func (p *parser) closeTag(off int, tag string) int {
	rest := p.s[off:]
	if !strings.HasPrefix(rest, "</") || !strings.HasPrefix(rest[2:], tag) {
		return -1
	}
	i := off + 2 + len(tag)
	for i < len(p.s) && isSpace(p.s[i]) {
		i++
	}
	if i < len(p.s) && p.s[i] == '>' {
		return i + 1
	}
	return -1
}

// call reads the <tool_call> block that starts at start and returns it with the offset after
// it.
func (p *parser) call(start int) (Call, int, error) {
	attrs, selfClosing, pos, err := p.startTag(start, "tool_call", "")
	if err != nil {
		return Call{}, 0, err
	}
	call := Call{Name: attrs["name"], ID: attrs["id"], Offset: start}
	if _, ok := attrs["name"]; !ok || strings.TrimSpace(call.Name) == "" {
		return Call{}, 0, p.fail(start, "", `the <tool_call> has no name attribute; write <tool_call name="TOOL_NAME">`)
	}
	call.Name = strings.TrimSpace(call.Name)
	if selfClosing {
		return call, pos, nil
	}
	where := fmt.Sprintf("<tool_call name=%q>", call.Name)
	for {
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		switch {
		case pos >= len(p.s):
			return Call{}, 0, p.fail(start, call.Name, "%s is not closed; end it with </tool_call>", where)
		case p.closeTag(pos, "tool_call") >= 0:
			return call, p.closeTag(pos, "tool_call"), nil
		case p.isStart(pos, "parameter"):
			param, end, err := p.param(pos, call.Name)
			if err != nil {
				return Call{}, 0, err
			}
			call.Params = append(call.Params, param)
			pos = end
		case strings.HasPrefix(p.s[pos:], "<!--"):
			end := strings.Index(p.s[pos+4:], "-->")
			if end < 0 {
				return Call{}, 0, p.fail(pos, call.Name, "a comment in %s is not closed; end it with -->", where)
			}
			pos += 4 + end + 3
		case p.isStart(pos, "tool_call"):
			return Call{}, 0, p.fail(start, call.Name, "%s is not closed; end it with </tool_call> before the next <tool_call>", where)
		case p.s[pos] == '<':
			tag := p.tagName(pos)
			return Call{}, 0, p.fail(pos, call.Name, "unexpected %s inside %s; write each argument as <parameter name=\"NAME\">VALUE</parameter>", tag, where)
		default:
			return Call{}, 0, p.fail(pos, call.Name, "unexpected text %s inside %s; write each argument as <parameter name=\"NAME\">VALUE</parameter>", shown(p.s[pos:]), where)
		}
	}
}

// tagName renders the tag at off for a message: "<city>", "</city>".
func (p *parser) tagName(off int) string {
	end := off + 1
	if end < len(p.s) && p.s[end] == '/' {
		end++
	}
	for end < len(p.s) && isNameByte(p.s[end]) {
		end++
	}
	if end == off+1 {
		return strconv.Quote("<")
	}
	return p.s[off:end] + ">"
}

// param reads the <parameter> element that starts at start.
func (p *parser) param(start int, tool string) (Param, int, error) {
	attrs, selfClosing, pos, err := p.startTag(start, "parameter", tool)
	if err != nil {
		return Param{}, 0, err
	}
	name, ok := attrs["name"]
	name = strings.TrimSpace(name)
	if !ok || name == "" {
		return Param{}, 0, p.fail(start, tool, `a <parameter> has no name attribute; write <parameter name="NAME">VALUE</parameter>`)
	}
	if selfClosing {
		return Param{Name: name}, pos, nil
	}
	value, end, err := p.value(pos, start, tool, name)
	if err != nil {
		return Param{}, 0, err
	}
	return Param{Name: name, Value: value}, end, nil
}

// value reads a parameter's value from pos up to its </parameter>. Raw white space at either
// end is layout, not value, and is dropped; CDATA and character references are kept as is.
func (p *parser) value(pos, start int, tool, name string) (string, int, error) {
	var b strings.Builder
	kept := 0        // b.Len() after the last byte that is not raw white space
	started := false // whether anything but raw white space has been read
	unclosed := func() error {
		return p.fail(start, tool, "<parameter name=%q> is not closed; end its value with </parameter>", name)
	}
	for pos < len(p.s) {
		c := p.s[pos]
		switch {
		case c == '<':
			if strings.HasPrefix(p.s[pos:], "<![CDATA[") {
				body := pos + len("<![CDATA[")
				end := strings.Index(p.s[body:], "]]>")
				if end < 0 {
					return "", 0, p.fail(pos, tool, "a CDATA section in <parameter name=%q> is not closed; end it with ]]>", name)
				}
				b.WriteString(p.s[body : body+end])
				started, kept = true, b.Len()
				pos = body + end + len("]]>")
				continue
			}
			if end := p.closeTag(pos, "parameter"); end >= 0 {
				return b.String()[:kept], end, nil
			}
			if p.closeTag(pos, "tool_call") >= 0 || p.isStart(pos, "parameter") || p.isStart(pos, "tool_call") {
				return "", 0, unclosed()
			}
			b.WriteByte(c)
			started, kept = true, b.Len()
			pos++
		case c == '&':
			if r, n := entity(p.s[pos:]); n > 0 {
				b.WriteString(r)
				pos += n
			} else {
				b.WriteByte(c)
				pos++
			}
			started, kept = true, b.Len()
		case isSpace(c):
			if started {
				b.WriteByte(c)
			}
			pos++
		default:
			b.WriteByte(c)
			started, kept = true, b.Len()
			pos++
		}
	}
	return "", 0, unclosed()
}

// startTag reads the attributes of the start tag <tag …> or <tag …/> at start; tool names the
// enclosing call for messages.
func (p *parser) startTag(start int, tag, tool string) (attrs map[string]string, selfClosing bool, end int, err error) {
	pos := start + 1 + len(tag)
	attrs = make(map[string]string, 2)
	for {
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		if pos >= len(p.s) {
			return nil, false, 0, p.fail(start, tool, "the <%s> tag is not closed; end it with >", tag)
		}
		switch c := p.s[pos]; {
		case c == '>':
			return attrs, false, pos + 1, nil
		case c == '/' && pos+1 < len(p.s) && p.s[pos+1] == '>':
			return attrs, true, pos + 2, nil
		case !isNameByte(c):
			return nil, false, 0, p.fail(pos, tool, "unexpected %s in the <%s> tag; write attributes as name=\"value\"", shown(p.s[pos:]), tag)
		}
		nameStart := pos
		for pos < len(p.s) && isNameByte(p.s[pos]) {
			pos++
		}
		attr := p.s[nameStart:pos]
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		if pos >= len(p.s) || p.s[pos] != '=' {
			return nil, false, 0, p.fail(nameStart, tool, "the attribute %s of <%s> has no value; write %s=\"value\"", attr, tag, attr)
		}
		pos++
		for pos < len(p.s) && isSpace(p.s[pos]) {
			pos++
		}
		if pos >= len(p.s) || (p.s[pos] != '"' && p.s[pos] != '\'') {
			return nil, false, 0, p.fail(nameStart, tool, "the value of the attribute %s of <%s> must be in quotes: %s=\"value\"", attr, tag, attr)
		}
		quote := p.s[pos]
		valueStart := pos + 1
		n := strings.IndexByte(p.s[valueStart:], quote)
		// A value that runs into a new line or a tag lost its closing quote; reading on would
		// swallow the rest of the call.
		if n < 0 || strings.ContainsAny(p.s[valueStart:valueStart+n], "<\n") {
			return nil, false, 0, p.fail(pos, tool, "the value of the attribute %s of <%s> has no closing quote", attr, tag)
		}
		if _, dup := attrs[attr]; dup {
			return nil, false, 0, p.fail(nameStart, tool, "the attribute %s appears twice in <%s>", attr, tag)
		}
		attrs[attr] = decodeText(p.s[valueStart : valueStart+n])
		pos = valueStart + n + 1
	}
}

// decodeText resolves the entities of an attribute value.
func decodeText(s string) string {
	if !strings.Contains(s, "&") {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		if s[i] == '&' {
			if r, n := entity(s[i:]); n > 0 {
				b.WriteString(r)
				i += n
				continue
			}
		}
		b.WriteByte(s[i])
		i++
	}
	return b.String()
}

// entity decodes the entity or character reference at the start of s ("&amp;", "&#60;",
// "&#x3C;") and returns its text and length; n is 0 when s does not start with one.
func entity(s string) (text string, n int) {
	end := strings.IndexByte(s[:min(len(s), 12)], ';')
	if end < 2 {
		return "", 0
	}
	name := s[1:end]
	switch name {
	case "lt":
		return "<", end + 1
	case "gt":
		return ">", end + 1
	case "amp":
		return "&", end + 1
	case "quot":
		return `"`, end + 1
	case "apos":
		return "'", end + 1
	}
	if name[0] != '#' || len(name) < 2 {
		return "", 0
	}
	digits, base := name[1:], 10
	if digits[0] == 'x' || digits[0] == 'X' {
		digits, base = digits[1:], 16
	}
	if digits == "" || digits[0] == '+' || digits[0] == '-' {
		return "", 0
	}
	v, err := strconv.ParseUint(digits, base, 32)
	if err != nil || v == 0 || !utf8.ValidRune(rune(v)) {
		return "", 0
	}
	return string(rune(v)), end + 1
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// isNameByte reports the bytes of an XML name as models write them: ASCII letters, digits and
// "_", "-", ".", ":".
func isNameByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '-' || c == '.' || c == ':'
}

// shown quotes the start of s for a message.
func shown(s string) string {
	const limit = 30
	if len(s) > limit {
		cut := limit
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		return strconv.Quote(s[:cut] + "…")
	}
	return strconv.Quote(s)
}
