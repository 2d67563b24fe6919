package openai_test

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
)

// A namespace is described by its tools' package description; without one, by its tools.
func TestNamespaceTakesThePackageDescription(t *testing.T) {
	weather := func(name, ns, pkg string) runtime.Tool {
		tool := fixture.WeatherTool()
		tool.Name, tool.Namespace, tool.PackageDescription = name, ns, pkg
		return tool
	}
	wire, err := toolopenai.ResponsesToolsJSON([]runtime.Tool{
		weather("now", "weather", ""), weather("forecast", "weather", "Weather of any city, now and the week ahead."),
		weather("tides", "sea", ""),
	})
	require.NoError(t, err)
	var got []struct {
		Type, Name, Description string
	}
	require.NoError(t, json.Unmarshal(wire, &got))
	require.Len(t, got, 2)
	assert.Equal(t, "Weather of any city, now and the week ahead.", got[0].Description)
	assert.Equal(t, "The sea tools: tides.", got[1].Description)
}
