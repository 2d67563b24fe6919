package mcp_test

import (
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// iconTool is a tool with an https icon and an embedded one, as //tool:icon generates them.
func iconTool() runtime.Tool {
	t := callInfoTool()
	t.Icons = []runtime.Icon{
		{Src: "https://example.com/close.png", MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}, Theme: "dark"},
		{Src: "data:image/svg+xml;base64,PHN2Zy8+", MIMEType: "image/svg+xml", Sizes: []string{"any"}},
	}
	return t
}

// A tool's icons are listed (2025-11-25's icons: src, mimeType, sizes, theme) on every
// protocol, transport and path.
func TestToolIconsAreListed(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(iconTool()))
	eachServing(t, reg, nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		res, err := cs.ListTools(t.Context(), nil)
		require.NoError(t, err)
		require.Len(t, res.Tools, 1)
		assert.Equal(t, []mcp.Icon{
			{Source: "https://example.com/close.png", MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}, Theme: mcp.IconThemeDark},
			{Source: "data:image/svg+xml;base64,PHN2Zy8+", MIMEType: "image/svg+xml", Sizes: []string{"any"}},
		}, res.Tools[0].Icons)
	})
}

// ToolsJSON, for a host with its own transport, writes them as the schema names them.
func TestToolsJSONWritesIcons(t *testing.T) {
	data, err := toolmcp.ToolsJSON([]runtime.Tool{iconTool()})
	require.NoError(t, err)
	var tools []struct {
		Icons []map[string]any `json:"icons"`
	}
	require.NoError(t, json.Unmarshal(data, &tools))
	require.Len(t, tools, 1)
	assert.Equal(t, []map[string]any{
		{"src": "https://example.com/close.png", "mimeType": "image/png", "sizes": []any{"48x48", "96x96"}, "theme": "dark"},
		{"src": "data:image/svg+xml;base64,PHN2Zy8+", "mimeType": "image/svg+xml", "sizes": []any{"any"}},
	}, tools[0].Icons)
}

// A prompt's and a resource's icons (//tool:icon on a //tool:prompt or //tool:resource
// handler) are listed too: 2025-11-25 gives prompts, resources and templates icons.
func TestPromptAndResourceIconsAreListed(t *testing.T) {
	withIcons := func(t runtime.Tool) runtime.Tool {
		t.Icons = iconTool().Icons
		return t
	}
	want := []mcp.Icon{
		{Source: "https://example.com/close.png", MIMEType: "image/png", Sizes: []string{"48x48", "96x96"}, Theme: mcp.IconThemeDark},
		{Source: "data:image/svg+xml;base64,PHN2Zy8+", MIMEType: "image/svg+xml", Sizes: []string{"any"}},
	}
	cs := serveInMemory(t, nil, toolmcp.WithPrompts(withIcons(weatherPrompt())),
		toolmcp.WithResources(withIcons(weatherResource()), withIcons(logoResource())))
	prompts, err := cs.ListPrompts(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, prompts.Prompts, 1)
	assert.Equal(t, want, prompts.Prompts[0].Icons)
	resources, err := cs.ListResources(t.Context(), nil)
	require.NoError(t, err)
	require.Len(t, resources.Resources, 1)
	assert.Equal(t, want, resources.Resources[0].Icons)
	templates, err := cs.ListResourceTemplates(t.Context(), nil)
	require.NoError(t, err)
	var found bool
	for _, tmpl := range templates.ResourceTemplates {
		if tmpl.Name == "weather" {
			found = true
			assert.Equal(t, want, tmpl.Icons)
		}
	}
	assert.True(t, found, "the weather template is listed")
}
