package mount

import (
	"slices"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/internal/icon"
	"github.com/toolgen-go/toolgen/runtime"
)

// icons returns the icons of a listed tool that may pass on to the registry (and to the MCP
// clients of a server serving it): at most MaxIcons, each one acceptIcon accepts. The others
// are left out: a client rendering a server's icon fetches or decodes what the server chose.
func icons(listed []mcp.Icon) []runtime.Icon {
	var out []runtime.Icon
	for _, ic := range listed {
		if len(out) == MaxIcons {
			break
		}
		if accepted, ok := acceptIcon(ic); ok {
			out = append(out, accepted)
		}
	}
	return out
}

// acceptIcon checks one icon a server listed: an https URL or a data: URI of an image type
// toolgen knows, its image at most icon.MaxBytes (64 KiB) and of the type it says; a
// mimeType of a known type (the data: URI's own, for one); at most MaxIconSizes valid sizes;
// a light or dark theme, or none.
func acceptIcon(ic mcp.Icon) (runtime.Icon, bool) {
	mime, err := icon.CheckSrc(ic.Source)
	if err != nil || len(ic.Sizes) > MaxIconSizes || ic.Theme != "" && !icon.ValidTheme(string(ic.Theme)) {
		return runtime.Icon{}, false
	}
	for _, size := range ic.Sizes {
		if !icon.ValidSize(size) {
			return runtime.Icon{}, false
		}
	}
	if ic.MIMEType != "" {
		data := strings.HasPrefix(ic.Source, "data:")
		if !icon.Known(ic.MIMEType) || data && ic.MIMEType != mime {
			return runtime.Icon{}, false
		}
		mime = ic.MIMEType
	}
	return runtime.Icon{Src: ic.Source, MIMEType: mime, Sizes: slices.Clone(ic.Sizes), Theme: string(ic.Theme)}, true
}
