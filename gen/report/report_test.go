package report_test

import (
	"bytes"
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/gen"
	"github.com/toolgen-go/toolgen/gen/provider"
	"github.com/toolgen-go/toolgen/gen/report"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/openai"
)

// TestReportMeasuresWhatTheAdaptersSend compares the report's bytes for the orders example,
// measured from the parsed source, with the definitions the adapters build from the code
// toolgen generated for it.
func TestReportMeasuresWhatTheAdaptersSend(t *testing.T) {
	dir, err := filepath.Abs("../../examples/orders/orders")
	require.NoError(t, err)
	res, err := gen.Generate(context.Background(), gen.Config{Dir: dir})
	require.NoError(t, err)
	rows := report.Measure(res.Packages, provider.All)
	generated := new(orders.Service).Tools()
	require.Len(t, rows, len(generated))

	byName := map[string]runtime.Tool{}
	for _, t := range generated {
		byName[t.Name] = t
	}
	for _, row := range rows {
		tool, ok := byName[row.Tool]
		require.True(t, ok, row.Tool)
		one := []runtime.Tool{tool}
		oa, err := openai.ResponsesToolsJSON(one)
		require.NoError(t, err)
		an, err := anthropic.ToolsJSON(one)
		require.NoError(t, err)
		ge, err := gemini.Declarations(one)
		require.NoError(t, err)
		geJSON, err := jsonLen(ge[0])
		require.NoError(t, err)
		assert.Equal(t, len(oa)-2, row.Bytes[provider.OpenAI], "%s openai (the array's brackets aside)", row.Tool)
		assert.Equal(t, len(an)-2, row.Bytes[provider.Anthropic], "%s anthropic", row.Tool)
		assert.Equal(t, geJSON, row.Bytes[provider.Gemini], "%s gemini", row.Tool)
		assert.Positive(t, row.Bytes[provider.MCP], "%s mcp", row.Tool)
	}

	var out bytes.Buffer
	report.Write(&out, rows, provider.All)
	assert.Contains(t, out.String(), "create_order")
	assert.Contains(t, out.String(), "total (3 tools)")
	assert.Contains(t, out.String(), "tokens are estimated as bytes/4")
}

func TestDeferredToolsLeftOutOfTheUpFrontTotal(t *testing.T) {
	rows := []report.Row{
		{Tool: "a", Bytes: map[string]int{"openai": 400}},
		{Tool: "b", Deferred: true, Bytes: map[string]int{"openai": 4000}},
	}
	var out bytes.Buffer
	report.Write(&out, rows, []string{"openai"})
	assert.Regexp(t, `b \(deferred\) +4000 +1000`, out.String())
	assert.Regexp(t, `total \(2 tools\) +4400 +1100`, out.String())
	assert.Regexp(t, `up front \(1 deferred left out\) +400 +100`, out.String())
}

func jsonLen(v any) (int, error) {
	b, err := json.Marshal(v)
	return len(b), err
}
