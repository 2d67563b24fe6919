package research_test

import (
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/presets/internal/presettest"
	"github.com/toolgen-go/toolgen/toolkit/presets/research"
	"github.com/toolgen-go/toolgen/toolkit/web"
)

func TestTools(t *testing.T) {
	t.Setenv("SERPER_API_KEY", "")
	t.Setenv("FIRECRAWL_API_KEY", "")
	tools := research.Tools(research.Options{})
	assert.Equal(t, []string{"create_artifact", "read_artifact", "read_result", "rewrite_artifact", "update_artifact", "web_fetch", "web_search"}, presettest.Names(tools))
	presettest.Declarable(t, tools)

	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tools...))
	// The defaults: the address guard on, no searcher without a key, artifacts in memory.
	local := httptest.NewServer(http.NotFoundHandler())
	defer local.Close()
	res := reg.Invoke(t.Context(), runtime.Call{Name: "web_fetch", Args: []byte(`{"url":"` + local.URL + `"}`)})
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindPermission, res.Kind)
	res = reg.Invoke(t.Context(), runtime.Call{Name: "web_search", Args: []byte(`{"query":"go"}`)})
	assert.Contains(t, res.Text, "web search is not configured")
	res = reg.Invoke(t.Context(), runtime.Call{Name: "create_artifact", Args: []byte(`{"id":"notes","content":"x"}`)})
	require.False(t, res.IsError, res.Text)
}

// A page over web_fetch's cap is kept by the registry, and the preset's read_result reads on.
func TestReadsOnInALongPage(t *testing.T) {
	page := strings.Repeat("line of a long page\n", 3000) + "THE END\n"
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		io.WriteString(w, page)
	}))
	defer srv.Close()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(research.Tools(research.Options{
		Web: &web.Toolkit{Allow: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}},
	})...))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "web_fetch", Session: "s", Args: []byte(`{"url":"` + srv.URL + `"}`)})
	require.False(t, res.IsError, res.Text)
	require.NotNil(t, res.Offloaded)
	require.NotEmpty(t, res.Offloaded.ID)
	assert.Contains(t, res.Text, "read_result", "the note says how to read on")
	assert.NotContains(t, res.Text, "THE END")

	offset := int64(len(res.Text) / 2) // somewhere inside the preview
	for range 10 {
		more := reg.Invoke(t.Context(), runtime.Call{Name: "read_result", Session: "s",
			Args: fmt.Appendf(nil, `{"id":%q,"offset":%d}`, res.Offloaded.ID, offset)})
		require.False(t, more.IsError, more.Text)
		if strings.Contains(more.Text, "THE END") {
			return
		}
		offset += 16000
	}
	t.Fatal("read_result never reached the end of the page")
}
