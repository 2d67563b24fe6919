package mount_test

import (
	"context"
	"encoding/base64"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// A mounted server's icons pass through to the registry and to the host's own MCP clients,
// checked as untrusted input: only https URLs and data: URIs of a known image type, of at
// most 64 KiB and of the type they say, valid sizes and themes, at most MaxIcons.
func TestMountedIconsPassThroughChecked(t *testing.T) {
	png := base64.StdEncoding.EncodeToString([]byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"))
	good := []mcp.Icon{
		{Source: "https://example.com/a.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: mcp.IconThemeLight},
		{Source: "data:image/png;base64," + png},
	}
	bad := []mcp.Icon{
		{Source: "http://example.com/plain.png"},                         // not https
		{Source: "javascript:alert(1)"},                                  // not an image URL
		{Source: "file:///etc/passwd"},                                   // a local file
		{Source: "https://example.com/a.png", MIMEType: "text/html"},     // not an image type
		{Source: "data:image/svg+xml;base64," + png},                     // not what it says
		{Source: "data:image/png;base64," + strings.Repeat("A", 90<<10)}, // over 64 KiB
		{Source: "https://example.com/a.png", Sizes: []string{"huge"}},
		{Source: "https://example.com/a.png", Theme: "neon"},
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "remote", Version: "1"}, nil)
	server.AddTool(&mcp.Tool{Name: "close", Description: "Closes.", InputSchema: schema(`{"type":"object"}`), Icons: append(bad, good...)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("ok"), nil })
	var many []mcp.Icon
	for range mount.MaxIcons + 3 {
		many = append(many, good[0])
	}
	server.AddTool(&mcp.Tool{Name: "many", Description: "Has many icons.", InputSchema: schema(`{"type":"object"}`), Icons: many},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) { return text("ok"), nil })

	host := runtime.NewRegistry()
	m, err := mount.Mount(t.Context(), host, mount.Server{Name: "remote", Dial: dialer(server)}, mount.Options{Logger: quiet})
	require.NoError(t, err)
	t.Cleanup(func() { _ = m.Close() })

	closeTool, ok := host.Tool("remote_close")
	require.True(t, ok)
	assert.Equal(t, []runtime.Icon{
		{Src: "https://example.com/a.png", MIMEType: "image/png", Sizes: []string{"48x48"}, Theme: "light"},
		{Src: "data:image/png;base64," + png, MIMEType: "image/png"},
	}, closeTool.Icons, "only the good icons")
	manyTool, _ := host.Tool("remote_many")
	assert.Len(t, manyTool.Icons, mount.MaxIcons)

	// The host serves them on.
	serverEnd, clientEnd := mcp.NewInMemoryTransports()
	ss, err := toolmcp.NewServer(host).Connect(t.Context(), serverEnd, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "1"}, nil).Connect(t.Context(), clientEnd, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	listed, err := cs.ListTools(t.Context(), nil)
	require.NoError(t, err)
	for _, tool := range listed.Tools {
		if tool.Name == "remote_close" {
			require.Len(t, tool.Icons, 2)
			assert.Equal(t, "https://example.com/a.png", tool.Icons[0].Source)
		}
	}
}
