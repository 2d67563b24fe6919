// Command client is the client side of the MCP conformance suite's runs: the suite starts a
// test server for one client scenario and runs this command with the server's URL as its last
// argument and the scenario's name in MCP_CONFORMANCE_SCENARIO. It is written only with
// toolgen's public API: it mounts the server into a runtime.Registry (runtime/mcp/mount) and
// calls the scenario's tools through Registry.Invoke, as a host's agent loop would.
//
// The auth scenarios need an OAuth client, which the mount does not have (it sends the
// headers it is given), so those scenarios run and fail, as docs/standards.md records. The
// server's questions (elicitation) are accepted with their defaults.
package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

// calls are the tool calls each scenario expects, by the server's tool names, when the
// suite's context (MCP_CONFORMANCE_CONTEXT) does not list them (toolCalls); a scenario in
// neither calls every tool the server lists, without arguments.
var calls = map[string][]call{
	"initialize": nil, // the handshake and the tool listing are the scenario
	"tools_call": {{"add_numbers", `{"a":5,"b":3}`}},
	// The one valid tool among tools whose x-mcp-header annotations are invalid, which the
	// mount leaves out (SEP-2243); its argument is what the scenario's region header wants.
	"http-invalid-tool-headers": {{"valid_tool", `{"region":"us-west1"}`}},
}

type call struct{ tool, args string }

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: client SERVER-URL (the scenario in MCP_CONFORMANCE_SCENARIO)")
		os.Exit(2)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := run(ctx, os.Args[len(os.Args)-1], os.Getenv("MCP_CONFORMANCE_SCENARIO"), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "client:", err)
		os.Exit(1)
	}
}

// run mounts the server at url, makes the scenario's calls and prints each result to out. A
// call that ends in an error result is an error: the scenario wanted it to succeed.
func run(ctx context.Context, url, scenario string, out io.Writer) error {
	// The suite's tools carry no annotations, which the protocol reads as destructive, so
	// each call needs approval: this client stands for the user who approves them.
	approver := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true, By: "conformance client"}, nil
	})
	reg := runtime.NewRegistry(runtime.WithApprover(approver))
	logger := slog.New(slog.NewTextHandler(os.Stderr, nil))
	// The user accepts every question the server asks with the form's defaults: the go-sdk
	// fills the fields left out from the schema's defaults (SEP-1034). One user is behind
	// every call here, so questions that name no call are passed on too.
	accept := func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{}}, nil
	}
	oauth, err := authorizer()
	if err != nil {
		return err
	}
	m, err := mount.Mount(ctx, reg, mount.Server{Name: "conformance", URL: url, OAuth: oauth},
		mount.Options{NoPrefix: true, Logger: logger, Elicit: accept, ElicitUntied: true})
	if err != nil {
		return err
	}
	defer m.Close()
	fmt.Fprintf(out, "tools: %v\n", m.Tools())

	todo, listed := calls[scenario]
	if suite, err := suiteContext(); err != nil {
		return err
	} else if len(suite.ToolCalls) > 0 {
		todo, listed = nil, true
		for _, c := range suite.ToolCalls {
			todo = append(todo, call{c.Name, string(c.Arguments)})
		}
	}
	if !listed {
		for _, name := range m.Tools() {
			todo = append(todo, call{name, `{}`})
		}
	}
	for i, c := range todo {
		name, ok := m.ToolName(c.tool)
		if !ok {
			return fmt.Errorf("the server lists no tool %q", c.tool)
		}
		res := reg.Invoke(ctx, runtime.Call{ID: fmt.Sprint("call-", i), Name: name, Args: json.RawMessage(c.args)})
		fmt.Fprintf(out, "%s: %s\n", c.tool, res.Text)
		if res.IsError {
			return fmt.Errorf("%s: %s (%w)", c.tool, res.Text, res.Err)
		}
	}
	return nil
}

// authorizer is the OAuth client of the auth/ scenarios: the go-sdk's authorization code
// flow, registering as the suite's context says (a pre-registered client's id and secret),
// else with a client ID metadata document, else dynamically. The suite's authorization
// server approves at once, redirecting to the callback with the code: the user's visit to the
// authorization page is one request here.
func authorizer() (auth.OAuthHandler, error) {
	const callback = "http://localhost:3000/callback"
	config := &auth.AuthorizationCodeHandlerConfig{
		RedirectURL:              callback,
		AuthorizationCodeFetcher: visitAuthorizationPage,
		ClientIDMetadataDocumentConfig: &auth.ClientIDMetadataDocumentConfig{
			URL: "https://conformance-test.local/client-metadata.json",
		},
		DynamicClientRegistrationConfig: &auth.DynamicClientRegistrationConfig{
			Metadata: &oauthex.ClientRegistrationMetadata{RedirectURIs: []string{callback}},
		},
	}
	suite, err := suiteContext()
	if err != nil {
		return nil, err
	}
	if suite.ClientID != "" && suite.ClientSecret != "" {
		config.PreregisteredClient = &oauthex.ClientCredentials{
			ClientID:         suite.ClientID,
			ClientSecretAuth: &oauthex.ClientSecretAuth{ClientSecret: suite.ClientSecret},
		}
	}
	return auth.NewAuthorizationCodeHandler(config)
}

// scenarioContext is what the suite tells the client of its scenario.
type scenarioContext struct {
	// A pre-registered OAuth client (auth/ scenarios).
	ClientID     string `json:"client_id"`
	ClientSecret string `json:"client_secret"`
	// The tool calls to make, with their arguments as the suite wrote them (http-custom-headers).
	ToolCalls []struct {
		Name      string          `json:"name"`
		Arguments json.RawMessage `json:"arguments"`
	} `json:"toolCalls"`
}

func suiteContext() (scenarioContext, error) {
	var suite scenarioContext
	if data := os.Getenv("MCP_CONFORMANCE_CONTEXT"); data != "" {
		if err := json.Unmarshal([]byte(data), &suite); err != nil {
			return suite, fmt.Errorf("MCP_CONFORMANCE_CONTEXT: %w", err)
		}
	}
	return suite, nil
}

// visitAuthorizationPage opens the authorization URL as the user's browser would, and reads
// the code, state and issuer from the redirect to the callback.
func visitAuthorizationPage(ctx context.Context, args *auth.AuthorizationArgs) (*auth.AuthorizationResult, error) {
	browser := &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, args.URL, nil)
	if err != nil {
		return nil, err
	}
	res, err := browser.Do(req)
	if err != nil {
		return nil, err
	}
	res.Body.Close()
	location, err := url.Parse(res.Header.Get("Location"))
	if err != nil {
		return nil, fmt.Errorf("the authorization page's redirect: %w", err)
	}
	q := location.Query()
	return &auth.AuthorizationResult{Code: q.Get("code"), State: q.Get("state"), Iss: q.Get("iss")}, nil
}
