// Package toolsearch lets a model find tools instead of reading them all: tools marked
// //tool:defer stay out of the model's context until a search finds them.
//
// Large catalogs cost context and accuracy: providers report tool selection degrading past 30
// to 50 tools. OpenAI and Anthropic search deferred tools themselves (the adapters send such
// tools with defer_loading); for every other host, and for providers without server-side
// search, this package compiles a BM25 index over what the generated code already holds —
// names, titles, descriptions, tags, categories, namespaces, triggers and parameter names —
// and serves it as a tool:
//
//	search, err := toolsearch.New(reg)                // reg holds the catalog
//	tools := search.Tools(ctx, session)               // declare these: tool_search + tools not deferred + found ones
//	results := openai.Dispatch(ctx, search.Registry(), calls)
//
// The model calls tool_search {query, limit} with a few words describing its task; the
// result lists the best matches, and from then on Tools declares them in that session (kept
// in the registry's session store, at most 64 per session). Found tools are revealed per
// session: one conversation's searches never change what another is declared.
//
// The index (of the tools the registry held at New) is built on the first search: no
// I/O, about 10 ms for 300 tools; a search over 300 tools takes about 50 µs (BenchmarkSearch).
// Terms are lower-cased words split at snake_case, kebab-case and camelCase boundaries, with
// stop words removed, a light English stemming (invoices → invoice) and the common verbs
// people use for what a tool does mapped to the verbs tool names use (remove → delete, add →
// create, download → export, …). Recall@5 on a synthetic catalog of 300 tools with 120
// labelled queries is 0.87 (TestRecallAt5); the misses are queries naming a thing by a word
// that no tool's text contains, which no lexical search finds: describe tools with the words
// users use.
package toolsearch
