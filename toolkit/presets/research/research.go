// Package research is the research preset: web_search, web_fetch, the four artifact tools
// and read_result, in one call:
//
//	reg := runtime.NewRegistry()
//	if err := reg.Add(research.Tools(research.Options{})...); err != nil { … }
//
// It is apart from package presets so that programs using the other presets do not link the
// web toolkit. Options left nil get the toolkits' defaults: web search from the environment
// (web.SearcherFromEnv: Serper, else Firecrawl, else none), the address guard on, artifacts
// in memory. Join it with other sets with presets.Union.
package research

import (
	"slices"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/artifacts"
	"github.com/toolgen-go/toolgen/toolkit/presets"
	"github.com/toolgen-go/toolgen/toolkit/web"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// Options configure Tools; nil fields get defaults.
type Options struct {
	Web       *web.Toolkit       // nil: the guard on, the searcher from the environment
	Artifacts *artifacts.Toolkit // nil: artifacts in memory
}

// Tools returns web_search, web_fetch, create_artifact, read_artifact, update_artifact,
// rewrite_artifact and read_result (a long page is cut to web_fetch's cap and kept by the
// registry; read_result reads on).
func Tools(o Options) []runtime.Tool {
	if o.Web == nil {
		o.Web = &web.Toolkit{Searcher: web.SearcherFromEnv()}
	}
	if o.Artifacts == nil {
		o.Artifacts = &artifacts.Toolkit{}
	}
	all := workspace.New(nil).Tools()
	readResult := slices.DeleteFunc(all, func(t runtime.Tool) bool { return t.Name != "read_result" })
	return slices.Concat(o.Web.Tools(), o.Artifacts.Tools(), readResult)
}

// XMLAgent returns the XML agent's web_search {query, max_results, freshness}: the web
// toolkit's web_search with num named max_results (presets.RenameAll: its texts name
// no web_fetch, which it is without). w nil: the guard on, the
// searcher from the environment. presets.XMLAgent has its call_subagent.
func XMLAgent(w *web.Toolkit) []runtime.Tool {
	if w == nil {
		w = &web.Toolkit{Searcher: web.SearcherFromEnv()}
	}
	out, err := presets.RenameAll(w.Tools(), presets.Renaming{Tool: "web_search", Args: map[string]string{"num": "max_results"}})
	if err != nil {
		panic(err) // web_search's schema is the toolkit's, in schematool's subset
	}
	return out
}
