// Command research-agent is an agent loop built from toolgen's toolkits, with a scripted
// model and no network: every tool call goes through the Anthropic adapter's wire format
// (runtime/anthropic: ParseCalls, Dispatch, ToolResultsJSON), as a real loop's would.
//
// The lead agent plans with write_todos, asks the user which release to cover (ask_user,
// answered by a scripted user), delegates the search to a "researcher" sub-agent (task: the
// host's Runner runs the same loop with the researcher's script and its own tool subset,
// web_search and web_fetch), fetches the page the researcher found from a local web server
// (allowlisted past web_fetch's address guard), writes a report (create_artifact) and closes
// its plan. The host sees every todo change and the delegation as typed effects.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"os"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/toolkit/artifacts"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/presets"
	"github.com/toolgen-go/toolgen/toolkit/presets/research"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/todos"
	"github.com/toolgen-go/toolgen/toolkit/web"
)

// maxTurns bounds each agent's loop.
const maxTurns = 10

func main() {
	if _, err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "research-agent:", err)
		os.Exit(1)
	}
}

// run runs the lead agent to its answer and returns the artifact store it wrote to.
func run(ctx context.Context, out io.Writer) (artifacts.Store, error) {
	site := httptest.NewServer(releaseNotes())
	defer site.Close()
	search := httptest.NewServer(fakeSerper(site.URL))
	defer search.Close()

	store := &artifacts.MemoryStore{}
	reg := runtime.NewRegistry()
	agents := &subagent.Toolkit{
		Agents: []subagent.Agent{{Name: "researcher", Description: "searches the web and reads pages", Tools: []string{"web_search", "web_fetch"}}},
		Tools:  reg,
	}
	agents.Runner = subagent.RunnerFunc(func(ctx context.Context, req subagent.Request) (string, error) {
		fmt.Fprintf(out, "\n-- sub-agent %s starts (depth %d, %d tools): %s\n", req.Agent.Name, req.Depth, len(req.Tools.Names()), req.Prompt)
		return loop(ctx, req.Tools, researcher(), req.Session, out)
	})
	tools := slices.Concat(
		research.Tools(research.Options{
			Web: &web.Toolkit{
				Searcher: web.Serper{APIKey: "demo", BaseURL: search.URL},
				Allow:    []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}, // the local site only
			},
			Artifacts: &artifacts.Toolkit{Store: store},
		}),
		presets.Agent(presets.AgentOptions{Ask: &ask.Toolkit{Answerer: scriptedUser{}}, Subagents: agents}),
	)
	if err := reg.Add(tools...); err != nil {
		return nil, err
	}
	// What a real loop sends the model: every tool's definition in the provider's format.
	if _, err := toolanthropic.ToolsJSON(reg.Tools()); err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "== tools: %s\n", strings.Join(reg.Names(), ", "))

	answer, err := loop(ctx, reg, lead(), "session-1", out)
	if err != nil {
		return nil, err
	}
	fmt.Fprintf(out, "\n== answer\n%s\n", answer)
	return store, nil
}

// loop runs one agent: the model's tool_use blocks are dispatched through the registry, the
// host handles the effects, and the tool_result blocks go back to the model, until it answers
// with text alone.
func loop(ctx context.Context, reg *runtime.Registry, model *scriptedModel, session string, out io.Writer) (string, error) {
	var results []toolResult
	for range maxTurns {
		msg, err := model.reply(results)
		if err != nil {
			return "", err
		}
		calls, err := toolanthropic.ParseCalls(msg)
		if err != nil {
			return "", err
		}
		if len(calls) == 0 {
			return textOf(msg), nil
		}
		for i := range calls {
			calls[i].Session = session
		}
		outs := toolanthropic.Dispatch(ctx, reg, calls)
		for _, o := range outs {
			fmt.Fprintf(out, "\n[%s] %s %s\n", model.name, o.Call.Name, o.Call.Args)
			if o.Result.Text != "" {
				fmt.Fprintf(out, "%s\n", indent(o.Result.Text))
			}
			handleEffects(out, o.Result.Effects)
		}
		wire, err := toolanthropic.ToolResultsJSON(outs)
		if err != nil {
			return "", err
		}
		if err := json.Unmarshal(wire, &results); err != nil {
			return "", err
		}
	}
	return "", fmt.Errorf("%s: no answer after %d turns", model.name, maxTurns)
}

// handleEffects is the host's side of the typed effects: a UI would redraw the plan here.
func handleEffects(out io.Writer, effects []runtime.Effect) {
	for _, e := range effects {
		switch e := e.(type) {
		case todos.Change:
			done := 0
			for _, t := range e.Todos {
				if t.Status == todos.Completed {
					done++
				}
			}
			fmt.Fprintf(out, "  (host: plan updated, %d of %d done)\n", done, len(e.Todos))
		case subagent.Route:
			fmt.Fprintf(out, "  (host: %s answered at depth %d)\n", e.Agent, e.Depth)
		default:
			fmt.Fprintf(out, "  (host: effect %s)\n", e.EffectName())
		}
	}
}

// scriptedUser answers ask_user as the user would.
type scriptedUser struct{}

func (scriptedUser) Answer(_ context.Context, q ask.Question) (ask.Answer, error) {
	return ask.Answer{Choices: q.Options[len(q.Options)-1:], Text: "keep it short"}, nil
}

// releaseNotes is the local web site the agents read.
func releaseNotes() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/doc/go1.26", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		io.WriteString(w, `<html><head><title>Go 1.26 Release Notes</title></head><body>
<h1>Go 1.26 Release Notes</h1>
<p>Go 1.26 ships the <b>green tea</b> garbage collector by default.</p>
<ul><li>new(expr) takes an expression</li><li>faster cgo calls</li></ul>
</body></html>`)
	})
	return mux
}

// fakeSerper answers Serper's search API with the local site's page.
func fakeSerper(siteURL string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(map[string]any{"organic": []map[string]any{
			{"title": "Go 1.26 Release Notes", "link": siteURL + "/doc/go1.26", "snippet": "The latest Go release, version 1.26, arrives..."},
		}})
	})
}

func indent(s string) string {
	return "  " + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n  ")
}
