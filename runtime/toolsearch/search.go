package toolsearch

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/sessionlist"
)

//go:generate go tool toolgen

// ToolName is the name of the search tool.
const ToolName = "tool_search"

// foundKey is the session-state key under which the tools a session's searches found are kept.
const foundKey = "toolsearch.found"

// maxFound bounds the tools one session can have found, so that a model searching in a loop
// cannot grow what every later request declares without end.
const maxFound = 64

// Search serves a registry's deferred tools through tool_search: the model starts with the
// tools that are not deferred and tool_search, and every tool a search returns is declared
// from then on in that session. It works with any provider, and beside runtime/disclosure.
//
// A Search is safe for concurrent use. It serves the tools the registry held at New, as its
// Registry runs them: a tool added later is neither found nor declared (it could not be
// called through Registry); make a new Search for it.
type Search struct {
	all *runtime.Registry // the registry's tools at New and tool_search, for the adapters

	mu    sync.Mutex
	index *Index
	names []string // the registry's names when index was built
}

// New returns a Search over reg. It refuses a registry that already has a tool named
// tool_search.
func New(reg *runtime.Registry) (*Search, error) {
	if reg == nil {
		return nil, fmt.Errorf("toolsearch: nil registry")
	}
	if _, taken := reg.Tool(ToolName); taken {
		return nil, fmt.Errorf("toolsearch: the registry already has a tool named %q", ToolName)
	}
	s := &Search{}
	all, err := reg.Subset(reg.Names()...)
	if err == nil {
		err = all.Add(SearchTools(s)...)
	}
	if err != nil {
		return nil, fmt.Errorf("toolsearch: %w", err)
	}
	s.all = all
	return s, nil
}

// Registry returns a registry that runs tool_search and every tool of the wrapped registry
// (as it was at New), with the same options: the adapters dispatch through it.
func (s *Search) Registry() *runtime.Registry { return s.all }

// Tools returns the tools to declare to the model in session: tool_search, every tool that is
// not deferred, and every deferred tool a search of the session found, sorted by name; of
// those, only the tools the caller of ctx may call (runtime.Grant, Registry.ToolsFor).
func (s *Search) Tools(ctx context.Context, session string) []runtime.Tool {
	found := s.found(ctx, session)
	out := SearchTools(s)
	for _, t := range s.all.ToolsFor(ctx) {
		if t.Name != ToolName && (!t.Deferred || slices.Contains(found, t.Name)) {
			out = append(out, t)
		}
	}
	slices.SortFunc(out, func(a, b runtime.Tool) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// Find returns the k deferred tools that match query best: the others are declared already.
// It searches every tool, whoever the caller: tool_search finds only the tools its caller may
// call (FindFor).
func (s *Search) Find(query string, k int) []Hit {
	return s.currentIndex().Search(query, k)
}

// FindFor returns the k deferred tools the caller of ctx may call (runtime.Grant) that match
// query best: a tool outside its grant is never a hit, so a search tells no caller of a tool
// it cannot call.
func (s *Search) FindFor(ctx context.Context, query string, k int) []Hit {
	ix := s.currentIndex()
	if k <= 0 {
		return nil
	}
	hits := ix.Search(query, len(ix.names)) // every hit, best first: those the grant keeps are cut to k
	hits = slices.DeleteFunc(hits, func(h Hit) bool {
		_, ok := s.all.ToolFor(ctx, h.Name)
		return !ok
	})
	return hits[:min(k, len(hits))]
}

// currentIndex returns the index of the registry's deferred tools, rebuilt when the
// registry's tools changed.
func (s *Search) currentIndex() *Index {
	names := s.all.Names()
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index == nil || !slices.Equal(names, s.names) {
		var deferred []runtime.Tool
		for _, t := range s.all.Tools() {
			if t.Deferred {
				deferred = append(deferred, t)
			}
		}
		s.index, s.names = NewIndex(deferred), names
	}
	return s.index
}

func (s *Search) found(ctx context.Context, session string) []string {
	return sessionlist.Get(ctx, s.all.Session(session), foundKey)
}

// SearchArgs are the arguments of tool_search.
type SearchArgs struct {
	// Words describing the task, e.g. "refund a customer's invoice".
	Query string `json:"query" tool:"minLength=1,maxLength=500"`
	// How many tools to return.
	Limit int `json:"limit,omitempty" tool:"default=5,minimum=1,maximum=20"`
}

// SearchResult is what tool_search returns.
type SearchResult struct {
	// Tools found, best match first; each can be called from now on.
	Tools []Found `json:"tools"`
}

// Found is one tool a search found.
type Found struct {
	Name        string `json:"name"`
	Description string `json:"description"`
}

// ToolSearch finds tools for a task among the tools not yet available. Returns the best matches, each callable from the next turn on.
//
// Use it when no available tool fits the task: describe the task in a few words.
//
//tool:name tool_search
//tool:hints readonly,idempotent
//tool:timeout none
//tool:example "Find a tool to refund an invoice" {"query":"refund invoice"}
func (s *Search) ToolSearch(ctx context.Context, args SearchArgs) (SearchResult, error) {
	hits := s.FindFor(ctx, args.Query, args.Limit)
	res := SearchResult{Tools: []Found{}}
	var names []string
	for _, h := range hits {
		if t, ok := s.all.ToolFor(ctx, h.Name); ok {
			res.Tools = append(res.Tools, Found{Name: t.Name, Description: t.Description})
			names = append(names, t.Name)
		}
	}
	if info, ok := runtime.CallInfoFrom(ctx); ok && len(names) > 0 {
		if err := sessionlist.Add(ctx, info.State, foundKey, names, maxFound); err != nil { // the oldest finds make room
			return SearchResult{}, err
		}
	}
	return res, nil
}
