package gemini_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/gemini"
)

// A response's modelVersion and usageMetadata reach its calls' Run, thoughts counted as output.
func TestParseCallsFillsRun(t *testing.T) {
	calls, err := gemini.ParseCalls([]byte(`{"candidates":[{"content":{"parts":[{"functionCall":{"name":"x","args":{}}}]}}],
		"modelVersion":"gemini-2.5-pro","usageMetadata":{"promptTokenCount":50,"candidatesTokenCount":8,"thoughtsTokenCount":30}}`))
	require.NoError(t, err)
	require.Len(t, calls, 1)
	require.NotNil(t, calls[0].Run)
	assert.Equal(t, runtime.RunInfo{Model: "gemini-2.5-pro", InputTokens: 50, OutputTokens: 38}, *calls[0].Run)
}
