package disclosure_test

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
	toolgemini "github.com/toolgen-go/toolgen/runtime/gemini"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
)

// Tools (get_tool_info and the revealed tools) declares to every provider, as the package
// doc shows: get_tool_info has the provider variants the adapters read.
func TestToolsDeclareToEveryProvider(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(new(orders.Service).Tools()...))
	d, err := disclosure.New(reg)
	require.NoError(t, err)
	_, err = toolopenai.ChatToolsJSON(d.Tools())
	require.NoError(t, err)
	_, err = toolanthropic.ToolsJSON(d.Tools(), toolanthropic.Strict())
	require.NoError(t, err)
	_, err = toolgemini.ToolsJSON(d.Tools())
	require.NoError(t, err)
}
