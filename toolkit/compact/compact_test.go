package compact_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/toolkit/compact"
)

func TestCompactConversationIsEffectOnly(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(compact.Tools()...))

	res := reg.Invoke(t.Context(), runtime.Call{Name: "compact_conversation", Args: []byte(`{"focus":"open bugs"}`)})
	require.False(t, res.IsError, res.Text)
	assert.True(t, res.EffectOnly())
	assert.Equal(t, []runtime.Effect{compact.Request{Focus: "open bugs"}}, res.Effects)

	res = reg.Invoke(t.Context(), runtime.Call{Name: "compact_conversation"})
	assert.Equal(t, []runtime.Effect{compact.Request{}}, res.Effects, "focus is optional")

	res = reg.Invoke(t.Context(), runtime.Call{Name: "compact_conversation", Args: []byte(`{"focus":3}`)})
	assert.True(t, res.IsError)
	assert.Empty(t, res.Effects, "an invalid call asks for nothing")
}

// Through the OpenAI adapter the model gets an empty tool message: nothing to read.
func TestCompactThroughOpenAIAdapter(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(compact.Tools()...))
	outs := toolopenai.Dispatch(t.Context(), reg, []runtime.Call{{ID: "call_1", Name: "compact_conversation", Args: []byte(`{}`)}})
	require.Len(t, outs, 1)
	assert.IsType(t, compact.Request{}, outs[0].Result.Effects[0])
	wire, err := toolopenai.ChatToolMessagesJSON(outs)
	require.NoError(t, err)
	assert.JSONEq(t, `[{"role":"tool","tool_call_id":"call_1","content":""}]`, string(wire))
}
