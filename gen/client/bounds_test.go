package client_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen/client"
)

// problemText generates doc and returns its problems, one a line.
func problemText(t *testing.T, doc string) string {
	t.Helper()
	_, problems, err := client.Generate([]byte(doc), "p", false)
	require.NoError(t, err)
	var lines []string
	for _, p := range problems.List() {
		lines = append(lines, p.Pointer+": "+p.Message)
	}
	return strings.Join(lines, "\n")
}

// TestBounds: what a server sends is untrusted; each bound of docs/limits.md refuses its
// excess with a message, without panicking or building the excess first.
func TestBounds(t *testing.T) {
	_, err := client.ParseListing([]byte(`{"tools":` + strings.Repeat("[", client.MaxJSONDepth+1) + strings.Repeat("]", client.MaxJSONDepth+1) + `}`))
	require.ErrorContains(t, err, "nested deeper than")

	_, err = client.ParseListing(make([]byte, client.MaxListingBytes+1))
	require.ErrorContains(t, err, "over the limit")

	tools := strings.TrimSuffix(strings.Repeat(`{"name":"t","inputSchema":{}},`, client.MaxTools+1), ",")
	_, err = client.ParseListing([]byte(`{"tools":[` + tools + `]}`))
	require.ErrorContains(t, err, fmt.Sprintf("over the limit of %d", client.MaxTools))

	deep := `{"type":"string"}`
	for range client.MaxSchemaDepth + 1 {
		deep = `{"type":"array","items":` + deep + `}`
	}
	assert.Contains(t, problemText(t, `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":`+deep+`}}}]}`),
		fmt.Sprintf("schemas are nested deeper than %d levels", client.MaxSchemaDepth))

	var props []string
	for i := range client.MaxProperties + 1 {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"string"}`, i))
	}
	assert.Contains(t, problemText(t, `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{`+strings.Join(props, ",")+`}}}]}`),
		fmt.Sprintf("over the limit of %d", client.MaxProperties))

	long := strings.Repeat("n", client.MaxNameBytes+1)
	assert.Contains(t, problemText(t, `{"tools":[{"name":"`+long+`","inputSchema":{"type":"object"}}]}`), "the tool name is 257 bytes")

	// Self-referencing $refs that name no type end, as a fallback, not a stack overflow.
	assert.Contains(t, problemText(t, `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{"$ref":"#/$defs/A"}},"$defs":{"A":{"$ref":"#/$defs/B"},"B":{"$ref":"#/$defs/A"}}}}]}`),
		"is recursive")

	// Problems past MaxProblems are counted, not kept.
	var bad []string
	for i := range client.MaxProblems + 5 {
		bad = append(bad, fmt.Sprintf(`"p%d":{"type":"nope"}`, i))
	}
	_, problems, err := client.Generate([]byte(`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{`+strings.Join(bad, ",")+`}}}]}`), "p", false)
	require.NoError(t, err)
	assert.Len(t, problems.List(), client.MaxProblems)
	var b strings.Builder
	problems.Print(&b, "x")
	assert.Contains(t, b.String(), "and 5 more problems")
}

func TestLongDescriptionIsCut(t *testing.T) {
	src, _, err := client.Generate([]byte(`{"tools":[{"name":"t","description":"`+strings.Repeat("é", client.MaxDocBytes)+`","inputSchema":{"type":"object"}}]}`), "p", false)
	require.NoError(t, err)
	assert.Contains(t, string(src), "é […]")
	assert.Less(t, len(src), 3*client.MaxDocBytes)
}

func TestPackageName(t *testing.T) {
	_, _, err := client.Generate([]byte(`{"tools":[]}`), "func", false)
	require.ErrorContains(t, err, "not a Go identifier")
}

// FuzzGenerate: whatever the listing, Generate does not panic, and what it generates parses.
func FuzzGenerate(f *testing.F) {
	f.Add(`{"tools":[{"name":"a_b","inputSchema":{"type":"object","properties":{"x":{"$ref":"#"}}}}]}`)
	f.Add(`{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"*/":{"description":"*/\n//go:x","enum":["a","A",""]}}},"outputSchema":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/x"}],"$defs":{"x":{"type":"object","properties":{"y":{"$ref":"#/$defs/x"}}}}}}]}`)
	f.Fuzz(func(t *testing.T, doc string) {
		src, _, err := client.Generate([]byte(doc), "p", false)
		if err != nil || src == nil {
			return
		}
		requireParses(t, src)
	})
}

// TestProblemsEscapeControls: a server's property or tool name with terminal controls (ESC,
// BEL, CR, a C1 CSI, a bidi override) reaches the operator's terminal through a problem's
// JSON Pointer or message escaped, never raw.
func TestProblemsEscapeControls(t *testing.T) {
	hostile := `a\u001b]0;owned\u0007\u001b[2J\rb\u009b\u202e`
	doc := `{"tools":[{"name":"t","inputSchema":{"type":"object","properties":{"` + hostile + `":{"type":"nope"}}}},` +
		`{"name":"` + hostile + `","inputSchema":{"type":"object"}},{"name":"` + hostile + `","inputSchema":{"type":"object"}}]}`
	_, problems, err := client.Generate([]byte(doc), "p", false)
	require.NoError(t, err)
	require.NotEmpty(t, problems.List())
	var b strings.Builder
	problems.Print(&b, "x")
	out := b.String()
	for _, c := range []string{"\x1b", "\x07", "\r", "\u009b", "\u202e"} {
		assert.NotContains(t, out, c, "%q printed raw", c)
	}
	assert.Contains(t, out, `#/tools/0/inputSchema/properties/a\x1b]0;owned\x07\x1b[2J\x0db\u009b\u202e: `)
	assert.Contains(t, out, `property name "a\x1b]0;owned\a\x1b[2J\rb\u009b\u202e" cannot`, "a message quotes the name once")
	assert.Equal(t, strings.Count(out, "\n"), len(problems.List()), "one line a problem: %q", out)
}

func TestEscapeControls(t *testing.T) {
	assert.Equal(t, `ok \x1b[2J\x0d\x07 \u009b\u202e\u2028 \xff é \ kept`, client.EscapeControls("ok \x1b[2J\r\a \u009b\u202e\u2028 \xff é \\ kept"))
	assert.Equal(t, "plain", client.EscapeControls("plain"))
}
