package mcp_test

import (
	"context"
	"log"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// A server over stateless streamable HTTP, each user's calls in one session kept ten minutes
// after their last connection, behind a bearer token check.
func ExampleHTTPHandler() {
	reg := runtime.NewRegistry()
	if err := reg.Add(fixture.WeatherTool()); err != nil { // your package's Tools()...
		log.Fatal(err)
	}
	verify := bearer // an auth.TokenVerifier: checks the token, returns its user
	handler := toolmcp.HTTPHandler(reg,
		toolmcp.WithStateless(),
		toolmcp.WithBearerAuth(verify, nil),
		toolmcp.WithSessionKey(toolmcp.SessionFromPrincipal()),
	)
	_ = http.Handler(handler) // http.ListenAndServe("127.0.0.1:8080", handler)
}

// Several users on one server, each shown the tools its roles allow: the roles live in the
// host's store, which tells the server when one changes.
func ExampleWithScopes() {
	reg := runtime.NewRegistry()
	if err := reg.Add(fixture.WeatherTool()); err != nil { // your package's Tools()..., some with //tool:scopes
		log.Fatal(err)
	}
	roles := map[string][]string{"ann": {"repo:write"}, "bob": nil} // your store of roles, by user
	handler := toolmcp.HTTPHandler(reg,
		toolmcp.WithBearerAuth(bearer, nil),
		toolmcp.WithScopes(func(_ context.Context, req mcp.Request) runtime.Grant {
			return runtime.Grant{Scopes: roles[req.GetExtra().TokenInfo.UserID]} // behind WithBearerAuth: a token always
		}),
	)
	_ = http.Handler(handler)
	// After changing ann's roles in the store:
	reg.GrantsChanged("ann") // her sessions get notifications/tools/list_changed
}

// A handler that asks the user during a call, as an ask_user tool does.
func ExampleElicit() {
	askUser := func(ctx context.Context, question string) (string, error) {
		schema := map[string]any{
			"type":       "object",
			"properties": map[string]any{"answer": map[string]any{"type": "string"}},
			"required":   []string{"answer"},
		}
		action, content, err := toolmcp.Elicit(ctx, question, schema)
		if err != nil {
			return "", err // return it as it is: on 2026-07-28 the call comes back with the answer
		}
		if action != "accept" {
			return "The user did not answer.", nil
		}
		answer, _ := content["answer"].(string) // validated against schema, but never trust a client
		return answer, nil
	}
	_ = askUser
}

// Prompts and resources from a package's annotated funcs, an event store for resumable
// streams, and the go-sdk server reached to tell subscribers of a change.
func ExampleWithPrompts() {
	reg := runtime.NewRegistry()
	handler := toolmcp.HTTPHandler(reg,
		toolmcp.WithPrompts(fixture.WeatherTool()), // your package's Prompts()... (//tool:prompt)
		toolmcp.WithResources(weatherResource()),   // your package's Resources()... (//tool:resource)
		toolmcp.WithEventStore(mcp.NewMemoryEventStore(nil)),
		toolmcp.WithServerHook(func(s *mcp.Server) {
			// Keep s to call s.ResourceUpdated when a subscribed resource changes.
		}),
	)
	_ = http.Handler(handler)
}

// A replica leaving a rolling restart: on SIGTERM the drain refuses new requests with a 503
// that clients retry elsewhere, waits for the calls in progress, and only then does the
// server shut down.
func ExampleDrain() {
	reg := runtime.NewRegistry()
	if err := reg.Add(fixture.WeatherTool()); err != nil {
		log.Fatal(err)
	}
	drain := &toolmcp.Drain{}
	srv := &http.Server{Addr: "127.0.0.1:8080", Handler: toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithDrain(drain))}
	go func() { _ = srv.ListenAndServe() }()

	sigterm := make(chan os.Signal, 1)
	signal.Notify(sigterm, syscall.SIGTERM)
	<-sigterm
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if err := drain.Wait(ctx); err != nil {
		log.Print("calls still running at the deadline: ", err)
	}
	_ = srv.Shutdown(ctx)
}
