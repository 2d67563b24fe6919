package xmlcall

import (
	"context"
	"encoding/json"
	"runtime/metrics"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
	"github.com/toolgen-go/toolgen/runtime/repair"
)

func TestParseSeedLayoutMixedWithAttributes(t *testing.T) {
	reply := "Searching.\n<tool_call>\n  <name>web_search</name>\n  <params>\n" +
		"    <query><![CDATA[Python async best practices]]></query>\n" +
		"    <max_results><![CDATA[10]]></max_results>\n  </params>\n</tool_call>\n" +
		"<tool_call name=\"get_weather\"><parameter name=\"city\">Oslo</parameter></tool_call>\n" +
		"<tool_call id=\"x7\"><name>get_weather</name><parameters><parameter name=\"city\">Rome</parameter><days>2</days></parameters></tool_call>"
	r, err := Options{Strict: true}.Parse(reply)
	require.NoError(t, err)
	require.Len(t, r.Calls, 3)
	assert.Equal(t, "web_search", r.Calls[0].Name)
	assert.Equal(t, []Param{{"query", "Python async best practices"}, {"max_results", "10"}}, r.Calls[0].Params)
	assert.Equal(t, []Param{{"city", "Oslo"}}, r.Calls[1].Params)
	assert.Equal(t, "x7", r.Calls[2].ID)
	assert.Equal(t, []Param{{"city", "Rome"}, {"days", "2"}}, r.Calls[2].Params)
	for _, c := range r.Calls {
		assert.Nil(t, c.Recovered, "well formed")
		assert.Equal(t, c.Raw, reply[c.Offset:c.Offset+len(c.Raw)])
		assert.True(t, strings.HasSuffix(c.Raw, "</tool_call>"), c.Raw)
	}
	assert.Equal(t, "Searching.", r.Text)
}

func TestParseRecovers(t *testing.T) {
	tests := []struct {
		name      string
		reply     string
		params    []Param
		recovered []string
		text      string
	}{
		{
			name:      "missing </parameter> before the next one",
			reply:     `<tool_call name="f"><parameter name="a">1<parameter name="b">2</parameter></tool_call>`,
			params:    []Param{{"a", "1"}, {"b", "2"}},
			recovered: []string{`the closing </parameter> of "a" was missing`},
		},
		{
			name:      "missing </tool_call> at the end",
			reply:     "<tool_call name=\"f\">\n<parameter name=\"a\">1</parameter>\n",
			params:    []Param{{"a", "1"}},
			recovered: []string{"the closing </tool_call> was missing"},
		},
		{
			name:      "missing element end tag in the seed layout",
			reply:     "<tool_call><name>f</name><params>\n<query>cats\n<limit>3</limit>\n</params></tool_call>",
			params:    []Param{{"query", "cats"}, {"limit", "3"}},
			recovered: []string{`the closing </query> of "query" was missing`},
		},
		{
			name:      "missing </params>",
			reply:     "<tool_call><name>f</name><params><q>x</q></tool_call>",
			params:    []Param{{"q", "x"}},
			recovered: []string{"the closing </params> was missing"},
		},
		{
			name:      "raw & and < outside CDATA",
			reply:     "<tool_call><name>f</name><params><q>Tom & Jerry <3</q></params></tool_call>",
			params:    []Param{{"q", "Tom & Jerry <3"}},
			recovered: []string{`the value of "q" holds a raw "&", read as text; write &amp; or wrap the value in <![CDATA[ ]]>`, `the value of "q" holds a raw "<", read as text; write &lt; or wrap the value in <![CDATA[ ]]>`},
		},
		{
			name:      "raw markup with its end tag present stays in the value",
			reply:     "<tool_call><name>f</name><params><html><b>hi</b></html></params></tool_call>",
			params:    []Param{{"html", "<b>hi</b>"}},
			recovered: []string{`the value of "html" holds a raw "<", read as text; write &lt; or wrap the value in <![CDATA[ ]]>`},
		},
		{
			name:      "parameters straight inside the call",
			reply:     "<tool_call><name>f</name><city>Oslo</city></tool_call>",
			params:    []Param{{"city", "Oslo"}},
			recovered: []string{"parameters were written outside <params>"},
		},
		{
			name:      "Markdown fence around the call",
			reply:     "Here:\n```xml\n<tool_call name=\"f\"><parameter name=\"a\">1</parameter></tool_call>\n```\nDone.",
			params:    []Param{{"a", "1"}},
			recovered: []string{"the call was wrapped in a Markdown code fence; write tool calls without one"},
			text:      "Here:\n\nDone.",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := Parse(tt.reply)
			require.NoError(t, err)
			require.Len(t, r.Calls, 1)
			assert.Equal(t, tt.params, r.Calls[0].Params)
			assert.Equal(t, tt.recovered, r.Calls[0].Recovered)
			assert.Equal(t, tt.text, r.Text)
			_, err = Options{Strict: true}.Parse(tt.reply)
			if !strings.Contains(tt.name, "raw") && !strings.Contains(tt.name, "Markdown") { // both are read the same way when strict
				assert.Error(t, err, "strict reading refuses it")
			}
		})
	}
}

func TestRunSaysWhatWasRecovered(t *testing.T) {
	reg := exampleRegistry(t)
	turn := Run(context.Background(), reg, "```\n<tool_call><name>get_weather</name><params><city>Oslo</params></tool_call>\n```")
	require.Len(t, turn.Outcomes, 1)
	res := turn.Outcomes[0].Result
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []string{`the closing </city> of "city" was missing`,
		"the call was wrapped in a Markdown code fence; write tool calls without one"}, res.Metadata[MetadataRecovered])
	assert.Contains(t, turn.Results(), "Your tool call was not well formed and was read leniently: the closing &lt;/city> of \"city\" was missing; the call was wrapped")
}

func TestLimits(t *testing.T) {
	reg := exampleRegistry(t)
	many := strings.Repeat(`<tool_call name="get_weather"><parameter name="city">Oslo</parameter></tool_call>`, 100_000)

	turn := Run(context.Background(), reg, many)
	require.Len(t, turn.Outcomes, 1)
	assert.Equal(t, "Your reply is longer than 1048576 bytes, so none of its tool calls was run. Write shorter calls.", turn.Outcomes[0].Result.Text)
	assert.Equal(t, runtime.KindLimit, turn.Outcomes[0].Result.Kind)

	unbounded := Options{MaxBytes: -1}
	allocated := allocatedBytes(func() { turn = unbounded.Run(context.Background(), reg, many) })
	require.Len(t, turn.Outcomes, 1)
	assert.Equal(t, "Your reply has more than 64 tool calls, so none was run. Make at most 64 calls in one reply.", turn.Outcomes[0].Result.Text)
	assert.Less(t, allocated, uint64(1<<20), "reading stops at the first call past the limit (reply: %d bytes)", len(many))

	params := `<tool_call><name>get_weather</name><params>` + strings.Repeat("<city>Oslo</city>", 100_000) + `</params></tool_call>`
	allocated = allocatedBytes(func() { turn = unbounded.Run(context.Background(), reg, params) })
	require.Len(t, turn.Outcomes, 1)
	assert.Equal(t, "A call of get_weather in your reply has more than 128 parameters, so none of its tool calls was run. Write at most 128 parameters per call.", turn.Outcomes[0].Result.Text)
	assert.Less(t, allocated, uint64(1<<20))

	two := Options{MaxCalls: 2}
	turn = two.Run(context.Background(), reg, strings.Repeat(`<tool_call name="get_weather"><parameter name="city">Oslo</parameter></tool_call>`, 3))
	require.Len(t, turn.Outcomes, 1)
	assert.True(t, turn.Outcomes[0].Result.IsError)
	turn = two.Run(context.Background(), reg, strings.Repeat(`<tool_call name="get_weather"><parameter name="city">Oslo</parameter></tool_call>`, 2))
	require.Len(t, turn.Outcomes, 2)
	assert.False(t, turn.Outcomes[1].Result.IsError)
}

// allocatedBytes is what f allocates on the heap, for every goroutine.
func allocatedBytes(f func()) uint64 {
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	f()
	metrics.Read(sample)
	return sample[0].Value.Uint64() - before
}

// meeting is a tool whose calls wait for each other: two of its calls in one reply end only
// if they run at the same time.
func meeting(t *testing.T, arrived *atomic.Int32, all chan struct{}, order *[]string, mu *sync.Mutex) []runtime.Tool {
	t.Helper()
	schema := json.RawMessage(`{"type":"object","properties":{},"additionalProperties":false}`)
	meet := runtime.Tool{Name: "meet", InputSchema: schema, Bind: func(context.Context, []byte) (runtime.BoundCall, error) {
		return call(func(ctx context.Context) runtime.Result {
			if arrived.Add(1) == 2 {
				close(all)
			}
			select {
			case <-all:
				mu.Lock()
				*order = append(*order, "meet")
				mu.Unlock()
				return runtime.TextResult("met")
			case <-ctx.Done():
				return runtime.ErrorResult(ctx.Err())
			}
		}), nil
	}}
	alone := runtime.Tool{Name: "alone", InputSchema: schema, Sequential: true, Bind: func(context.Context, []byte) (runtime.BoundCall, error) {
		return call(func(context.Context) runtime.Result {
			mu.Lock()
			*order = append(*order, "alone")
			mu.Unlock()
			return runtime.TextResult("alone")
		}), nil
	}}
	return []runtime.Tool{meet, alone}
}

type call func(ctx context.Context) runtime.Result

func (c call) Args() any                              { return nil }
func (c call) Run(ctx context.Context) runtime.Result { return c(ctx) }

func TestRunUsesInvokeAll(t *testing.T) {
	var arrived atomic.Int32
	all := make(chan struct{})
	var order []string
	var mu sync.Mutex
	reg := registry(t, meeting(t, &arrived, all, &order, &mu)...)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	// The two meet calls can only end together; alone waits for both and runs by itself.
	turn := Run(ctx, reg, `<tool_call name="meet"/><tool_call><name>meet</name></tool_call><tool_call name="alone"/>`)
	require.Len(t, turn.Outcomes, 3)
	for _, o := range turn.Outcomes {
		require.False(t, o.Result.IsError, o.Result.Text)
	}
	assert.Equal(t, []string{"meet", "meet", "alone"}, order)
}

func TestRunThroughDisclosureUsesInvokeAll(t *testing.T) {
	var arrived atomic.Int32
	all := make(chan struct{})
	var order []string
	var mu sync.Mutex
	reg := runtime.NewRegistry(runtime.WithRepair(repair.New()))
	require.NoError(t, reg.Add(meeting(t, &arrived, all, &order, &mu)...))
	require.NoError(t, reg.Add(weather.Tools()...))
	d, err := disclosure.New(reg)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	turn := Run(ctx, d, `<tool_call name="meet"/><tool_call name="get_tool_info"><parameter name="name">meet</parameter></tool_call>`+
		`<tool_call name="Meet"/><tool_call><name>getWeather</name><params><city>Oslo</city><days>1</days></params></tool_call>`)
	require.Len(t, turn.Outcomes, 4)
	for _, o := range turn.Outcomes {
		require.False(t, o.Result.IsError, o.Result.Text)
	}
	assert.Equal(t, []string{"meet", "meet"}, order, "both meet calls ran at once, one through a repaired name")
	assert.True(t, strings.HasPrefix(turn.Outcomes[1].Result.Text, "Tool: meet\n"))
	assert.Contains(t, turn.Outcomes[3].Result.Text, `"forecast":[{"day":1`)
}

func TestRunWithRepair(t *testing.T) {
	approve := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true}, nil
	})
	reg := runtime.NewRegistry(runtime.WithRepair(repair.New()), runtime.WithApprover(approve))
	require.NoError(t, reg.Add(weather.Tools()...))
	require.NoError(t, reg.Add(new(orders.Service).Tools()...))

	turn := Run(context.Background(), reg, `<tool_call><name>getWeather</name><params><city>Oslo</city><days>2</days></params></tool_call>`)
	res := turn.Outcomes[0].Result
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, []runtime.Repair{{Kind: repair.ToolName, From: "getWeather", To: "get_weather"}}, res.Metadata[runtime.MetadataRepairs])
	assert.Contains(t, res.Text, `"forecast":[{"day":1`)
	assert.Contains(t, turn.Results(), "\nYour tool call was repaired before it ran: the tool is called get_weather, not getWeather.\n{")

	fenced := "<tool_call name=\"create_order\">\n<parameter name=\"customer\">{\"id\":\"c1\",\"name\":\"Ann\",\"email\":\"ann@example.com\",}</parameter>\n" +
		"<parameter name=\"items\">```json\n[{\"sku\":\"ABC-1234\",\"name\":\"Pen\",\"qty\":2,\"price\":1.5}]\n```</parameter>\n" +
		"<parameter name=\"shipping\">{\"lines\":[\"1 Main St\"],\"city\":\"Oslo\",\"postal_code\":\"0150\",\"country\":\"SE\"}</parameter>\n</tool_call>"
	turn = Run(context.Background(), reg, fenced)
	res = turn.Outcomes[0].Result
	require.False(t, res.IsError, res.Text)
	var kinds []string
	for _, r := range res.Metadata[runtime.MetadataRepairs].([]runtime.Repair) {
		kinds = append(kinds, r.Path+" "+r.Kind)
	}
	assert.Equal(t, []string{"/customer trailing_comma", "/customer json_in_string", "/items markdown_fence", "/items json_in_string"}, kinds)

	// Without repair, the same call is refused with the JSON error.
	turn = Run(context.Background(), exampleRegistry(t), fenced)
	assert.True(t, turn.Outcomes[0].Result.IsError)
	assert.Contains(t, turn.Outcomes[0].Result.Text, "/customer: must be an object written as JSON, got text that is not valid JSON")
}

// TestMarkdownExamplesParse checks that every example call InstructionsMarkdown writes reads
// back, strictly, as a call of its tool with only the tool's parameters.
func TestMarkdownExamplesParse(t *testing.T) {
	reg := exampleRegistry(t)
	text := InstructionsMarkdown(reg.Tools())
	r, err := Options{Strict: true}.Parse(text)
	require.NoError(t, err)
	examples := 0
	for _, tool := range reg.Tools() {
		examples += len(tool.Examples)
	}
	// The head's form (TOOL_NAME), one placeholder call per tool, and the tools' own examples.
	require.Len(t, r.Calls, 1+len(reg.Tools())+examples)
	for _, c := range r.Calls[1:] {
		tool, ok := reg.Tool(c.Name)
		require.True(t, ok, c.Name)
		for _, p := range c.Params {
			assert.Contains(t, string(tool.InputSchema), `"`+p.Name+`":`, "%s has %s", c.Name, p.Name)
		}
		assert.Nil(t, c.Recovered, c.Raw)
	}
	for _, tool := range reg.Tools() {
		assert.Contains(t, text, "### "+tool.Name+"\nDescription: ")
	}
	assert.Contains(t, text, "- limit: integer (optional) - ")
	assert.Contains(t, text, "  Default: 20\n")
	assert.Contains(t, text, "<since><![CDATA[2026-01-31T09:30:00Z]]></since>")
	// The placeholder call of get_weather is a valid call.
	turn := Run(context.Background(), reg, text[strings.Index(text, "<tool_call>\n  <name>get_weather</name>"):])
	require.NotEmpty(t, turn.Outcomes)
	assert.False(t, turn.Outcomes[0].Result.IsError, turn.Outcomes[0].Result.Text)
}

// BenchmarkParseHostile reads replies of 1 MiB built to make a lenient reader slow (many
// unclosed values, many raw "<", many end tags that close nothing), next to json.Valid on a
// document of the same size as the baseline: reading stays linear in the reply's length.
func BenchmarkParseHostile(b *testing.B) {
	const size = 1 << 20
	fill := func(prefix, unit string) string {
		var s strings.Builder
		s.WriteString(prefix)
		for s.Len() < size-len(unit) {
			s.WriteString(unit)
		}
		return s.String()
	}
	unclosed := func(value string) string {
		var s strings.Builder
		s.WriteString("<tool_call><name>f</name><params>")
		for i := range DefaultMaxParams {
			s.WriteString("<p" + strings.Repeat("x", i%7) + string(rune('a'+i%26)) + ">")
			s.WriteString(strings.Repeat(value, (size-8<<10)/DefaultMaxParams/len(value)))
		}
		return s.String()
	}
	replies := map[string]string{
		"raw-lt":          unclosed("<"),
		"false-end-tags":  unclosed("</p"),
		"raw-ampersands":  fill("<tool_call><name>f</name><params><a>", "&"),
		"many-end-tags":   fill("<tool_call><name>f</name><params><a>", "</zz>"),
		"many-parameters": fill(`<tool_call name="f">`, `<parameter name="a">1</parameter>`),
	}
	doc := []byte(fill("[", `"abcdefgh",`) + `""]`)
	b.Run("json.Valid", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if !json.Valid(doc) {
				b.Fatal("invalid")
			}
		}
	})
	for name, reply := range replies {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(reply)))
			for b.Loop() {
				_, _ = Parse(reply)
			}
		})
	}
}

func TestConversionFailuresGetTheRegistrysFeedback(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithArgsFeedback(repair.Annotate))
	require.NoError(t, reg.Add(weather.Tools()...))
	turn := Run(context.Background(), reg, `<tool_call><name>get_weather</name><params><citty>Oslo</citty><days>three</days></params></tool_call>`)
	res := turn.Outcomes[0].Result
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindInvalidInput, res.Kind)
	assert.Contains(t, res.Text, "invalid arguments for get_weather; your arguments, each problem marked with ❌:\n```json\n{\n")
	assert.Contains(t, res.Text, `  "citty": "Oslo", // ❌ unknown property, did you mean "city"?`)
	assert.Contains(t, res.Text, `  "days": "three", // ❌ must be an integer, got "three" (schema: {"default":0,"maximum":7,"minimum":0,"type":"integer"})`)
	assert.Contains(t, res.Text, `  "city": undefined // ❌ required property is missing`)
}

func TestParseJSONBody(t *testing.T) {
	r, err := Parse("<tool_call>\n{\"name\": \"get_weather\", \"arguments\": {\"city\": \"Oslo\", \"days\": 2}}\n</tool_call>")
	require.NoError(t, err)
	require.Len(t, r.Calls, 1)
	assert.Equal(t, "get_weather", r.Calls[0].Name)
	assert.JSONEq(t, `{"city":"Oslo","days":2}`, string(r.Calls[0].Args))
	assert.Equal(t, []string{"the call was written as JSON inside <tool_call>; write its parameters as XML"}, r.Calls[0].Recovered)

	r, err = Parse(`<tool_call name="get_weather">{"city": "Oslo"}</tool_call>`)
	require.NoError(t, err)
	assert.JSONEq(t, `{"city":"Oslo"}`, string(r.Calls[0].Args))

	for _, reply := range []string{
		`<tool_call>{"city": "Oslo"}</tool_call>`,                                              // no name anywhere
		`<tool_call>{"name": "a", "arguments": {}, "extra": 1}</tool_call>`,                    // not the layout
		`<tool_call name="b">{"name": "a", "arguments": {}}</tool_call>`,                       // two names
		`<tool_call name="a">{"city": "Oslo"}<parameter name="days">2</parameter></tool_call>`, // both ways
		`<tool_call name="a">{"city": </tool_call>`,                                            // not JSON
	} {
		_, err := Parse(reply)
		var se *SyntaxError
		assert.ErrorAs(t, err, &se, reply)
	}
	_, err = Options{Strict: true}.Parse(`<tool_call name="get_weather">{"city": "Oslo"}</tool_call>`)
	assert.Error(t, err)

	// Run sends the JSON as it is: the decoder judges it, as a native call's.
	turn := Run(context.Background(), exampleRegistry(t), `<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo", "days": "2"}}</tool_call>`)
	assert.Contains(t, turn.Outcomes[0].Result.Text, "/days: must be an integer")
	turn = Run(context.Background(), exampleRegistry(t), `<tool_call>{"name": "get_weather", "arguments": {"city": "Oslo", "days": 2}}</tool_call>`)
	assert.False(t, turn.Outcomes[0].Result.IsError, turn.Outcomes[0].Result.Text)
}
