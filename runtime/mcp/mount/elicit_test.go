package mount_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/mcp/mount"
)

var nameSchema = map[string]any{"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []any{"name"}}

// asker is a go-sdk server whose tools ask the user: ask asks for a name, the go-sdk's way
// (an input request in the result, on 2026-07-28; elicitation/create to older clients), and
// says what it got; ask_many asks 20 questions at once.
type asker struct {
	server *mcp.Server
	calls  atomic.Int32 // tools/call rounds that reached ask
}

func newAsker(versions ...string) *asker {
	a := &asker{server: mcp.NewServer(&mcp.Implementation{Name: "asker", Version: "1"}, &mcp.ServerOptions{SupportedProtocolVersions: versions})}
	readOnly := &mcp.ToolAnnotations{ReadOnlyHint: true}
	a.server.AddTool(&mcp.Tool{Name: "ask", Description: "Asks your name.", Annotations: readOnly, InputSchema: schema(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			a.calls.Add(1)
			if caps := req.Session.InitializeParams().Capabilities; caps == nil || caps.Elicitation == nil {
				return text("no elicitation capability"), nil
			}
			if answer, ok := req.Params.InputResponses["name"].(*mcp.ElicitResult); ok {
				return text(fmt.Sprintf("%s %v", answer.Action, answer.Content["name"])), nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{"name": &mcp.ElicitParams{Message: "Your name?", RequestedSchema: nameSchema}}}, nil
		})
	a.server.AddTool(&mcp.Tool{Name: "ask_two", Description: "Asks two questions at once.", Annotations: readOnly, InputSchema: schema(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			first, ok1 := req.Params.InputResponses["first"].(*mcp.ElicitResult)
			second, ok2 := req.Params.InputResponses["second"].(*mcp.ElicitResult)
			if ok1 && ok2 {
				return text(fmt.Sprintf("%v %v", first.Content["name"], second.Content["name"])), nil
			}
			return &mcp.CallToolResult{InputRequests: mcp.InputRequestMap{
				"first":  &mcp.ElicitParams{Message: "First name?", RequestedSchema: nameSchema},
				"second": &mcp.ElicitParams{Message: "Last name?", RequestedSchema: nameSchema},
			}}, nil
		})
	a.server.AddTool(&mcp.Tool{Name: "ask_many", Description: "Asks too much.", Annotations: readOnly, InputSchema: schema(`{"type":"object"}`)},
		func(_ context.Context, req *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if len(req.Params.InputResponses) > 0 {
				return text("answered"), nil
			}
			questions := mcp.InputRequestMap{}
			for i := range 20 {
				questions[fmt.Sprint("q", i)] = &mcp.ElicitParams{Message: fmt.Sprint("question ", i), RequestedSchema: nameSchema}
			}
			return &mcp.CallToolResult{InputRequests: questions}, nil
		})
	return a
}

func mountAsker(t *testing.T, reg *runtime.Registry, a *asker, o mount.Options) {
	t.Helper()
	o.Logger = quiet
	dial := func(ctx context.Context) (mcp.Transport, error) {
		serverSide, clientSide := mcp.NewInMemoryTransports()
		ss, err := a.server.Connect(ctx, serverSide, nil)
		if err != nil {
			return nil, err
		}
		t.Cleanup(func() { ss.Close() })
		return clientSide, nil
	}
	m, err := mount.Mount(t.Context(), reg, mount.Server{Name: "remote", Dial: dial}, o)
	require.NoError(t, err)
	t.Cleanup(func() { m.Close() })
}

type callKey struct{}

// answerWithCall answers each question with the name the call's ctx carries: it shows that
// Elicit gets the ctx of the call the question belongs to.
func answerWithCall(action string, asked *atomic.Int32) func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
	return func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
		asked.Add(1)
		name, _ := ctx.Value(callKey{}).(string)
		if name == "" {
			return nil, fmt.Errorf("not the call's ctx")
		}
		return &mcp.ElicitResult{Action: action, Content: map[string]any{"name": name}}, nil
	}
}

func invokeAs(reg *runtime.Registry, name, tool string) runtime.Result {
	return reg.Invoke(context.WithValue(context.Background(), callKey{}, name), runtime.Call{Name: tool, Args: []byte(`{}`)})
}

func TestMountedServerAsksTheUser(t *testing.T) {
	t.Run("answered, with the call's ctx, calls apart", func(t *testing.T) {
		var asked atomic.Int32
		reg := runtime.NewRegistry()
		mountAsker(t, reg, newAsker(), mount.Options{Elicit: answerWithCall("accept", &asked)})
		var wg sync.WaitGroup
		results := make([]runtime.Result, 8)
		for i := range results {
			wg.Go(func() { results[i] = invokeAs(reg, fmt.Sprint("user", i), "remote_ask") })
		}
		wg.Wait()
		for i, res := range results {
			require.False(t, res.IsError, res.Text)
			assert.Equal(t, fmt.Sprintf("accept user%d", i), res.Text)
		}
		assert.Equal(t, int32(len(results)), asked.Load())
	})
	t.Run("declined", func(t *testing.T) {
		var asked atomic.Int32
		reg := runtime.NewRegistry()
		mountAsker(t, reg, newAsker(), mount.Options{Elicit: answerWithCall("decline", &asked)})
		res := invokeAs(reg, "Ada", "remote_ask")
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, "decline Ada", res.Text)
	})
	t.Run("no Elicit, no capability", func(t *testing.T) {
		reg := runtime.NewRegistry()
		mountAsker(t, reg, newAsker(), mount.Options{})
		res := invokeAs(reg, "Ada", "remote_ask")
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, "no elicitation capability", res.Text)
	})
	t.Run("a server on 2025-11-25 is declined", func(t *testing.T) {
		var asked atomic.Int32
		reg := runtime.NewRegistry()
		a := newAsker("2025-11-25")
		mountAsker(t, reg, a, mount.Options{Elicit: answerWithCall("accept", &asked)})
		res := invokeAs(reg, "Ada", "remote_ask")
		assert.True(t, res.IsError)
		assert.Contains(t, res.Text, "names no call, so it is declined")
		assert.Zero(t, asked.Load(), "a question that names no call never reaches Elicit")
		assert.Equal(t, int32(1), a.calls.Load())
	})
	t.Run("a server on 2025-11-25 is answered with ElicitUntied", func(t *testing.T) {
		reg := runtime.NewRegistry()
		a := newAsker("2025-11-25")
		mountAsker(t, reg, a, mount.Options{ElicitUntied: true, Elicit: func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			if _, ok := runtime.CallInfoFrom(ctx); ok {
				return nil, fmt.Errorf("an untied question came with a call's ctx")
			}
			return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": "the one user"}}, nil
		}})
		res := invokeAs(reg, "Ada", "remote_ask")
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, "accept the one user", res.Text)
	})
	t.Run("at most MaxElicitations untied questions at once", func(t *testing.T) {
		var waiting, most atomic.Int32
		reg := runtime.NewRegistry()
		mountAsker(t, reg, newAsker("2025-11-25"), mount.Options{ElicitUntied: true, Elicit: func(ctx context.Context, p *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			n := waiting.Add(1)
			defer waiting.Add(-1)
			for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
			}
			select { // held until the server gives up on it, so that the questions pile up
			case <-ctx.Done():
				return nil, ctx.Err()
			case <-time.After(10 * time.Second):
				return nil, fmt.Errorf("never cancelled")
			}
		}})
		res := invokeAs(reg, "Ada", "remote_ask_many") // 20 questions at once
		assert.True(t, res.IsError, res.Text)
		assert.Equal(t, int32(mount.MaxElicitations), most.Load(), "the 17th is refused while 16 wait")
	})
	t.Run("at most MaxElicitations a call", func(t *testing.T) {
		var asked atomic.Int32
		reg := runtime.NewRegistry()
		mountAsker(t, reg, newAsker(), mount.Options{Elicit: answerWithCall("accept", &asked)})
		res := invokeAs(reg, "Ada", "remote_ask_many")
		assert.True(t, res.IsError, res.Text)
		assert.Equal(t, int32(mount.MaxElicitations), asked.Load())
	})
	t.Run("an error from Elicit is the call's", func(t *testing.T) {
		reg := runtime.NewRegistry()
		mountAsker(t, reg, newAsker(), mount.Options{Elicit: func(context.Context, *mcp.ElicitParams) (*mcp.ElicitResult, error) {
			return nil, runtime.Permanent(fmt.Errorf("no one to ask"))
		}})
		res := invokeAs(reg, "Ada", "remote_ask")
		assert.True(t, res.IsError)
		assert.Contains(t, res.Text, "asked for input, and it could not be given")
		assert.ErrorContains(t, res.Err, "no one to ask")
		assert.True(t, runtime.IsPermanent(res.Err))
	})
}

// TestElicitThroughClient serves a mounted server's tool over MCP to a client that answers
// questions: the mounted server's question reaches the client, and the answer the server.
func TestElicitThroughClient(t *testing.T) {
	protocols := map[string]*mcp.ClientSessionOptions{"2025-11-25": {ProtocolVersion: "2025-11-25"}, "2026-07-28": nil}
	transports := map[string]func(*testing.T, *runtime.Registry, *mcp.ClientOptions, *mcp.ClientSessionOptions) *mcp.ClientSession{
		"memory": serve, "HTTP": serveHTTP, "stateless HTTP": serveStatelessHTTP}
	for transport, serve := range transports {
		for name, sopts := range protocols {
			if transport == "stateless HTTP" && sopts != nil {
				continue // on 2025-11-25 stateless HTTP cannot reach the client (ErrNoElicitation)
			}
			t.Run(transport+" "+name, func(t *testing.T) { elicitThroughClient(t, serve, sopts, name) })
		}
	}
}

// elicitThroughClient mounts an asker with ElicitThroughClient and serves it with serve to a
// client speaking sopts' protocol that answers.
func elicitThroughClient(t *testing.T, serve func(*testing.T, *runtime.Registry, *mcp.ClientOptions, *mcp.ClientSessionOptions) *mcp.ClientSession, sopts *mcp.ClientSessionOptions, protocol string) {
	a := newAsker()
	reg := runtime.NewRegistry()
	mountAsker(t, reg, a, mount.Options{Elicit: mount.ElicitThroughClient})
	var mu sync.Mutex
	var asked []string
	cs := serve(t, reg, &mcp.ClientOptions{ElicitationHandler: func(_ context.Context, req *mcp.ElicitRequest) (*mcp.ElicitResult, error) {
		mu.Lock()
		asked = append(asked, req.Params.Message)
		mu.Unlock()
		name := map[string]string{"Last name?": "Hopper"}[req.Params.Message]
		if name == "" {
			name = "Grace"
		}
		return &mcp.ElicitResult{Action: "accept", Content: map[string]any{"name": name}}, nil
	}}, sopts)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "remote_ask", Arguments: map[string]any{}})
	require.NoError(t, err)
	require.False(t, res.IsError, res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, "accept Grace", res.Content[0].(*mcp.TextContent).Text)
	assert.Equal(t, []string{"Your name?"}, asked)
	// Rounds of the mounted tool: on 2025-11-25 the question is asked during the mounted
	// call (the question, then the answer); on 2026-07-28 the first call ends with it, and
	// the client's second call makes the mounted call again (question, answer). Stateful
	// HTTP serves 2025-11-25 whatever the client asks for.
	if negotiated := cs.InitializeResult().ProtocolVersion; negotiated != protocol {
		t.Logf("asked for %s, speaking %s", protocol, negotiated)
		protocol = negotiated
	}
	assert.Equal(t, map[string]int32{"2025-11-25": 2, "2026-07-28": 3}[protocol], a.calls.Load())

	// Questions asked together come in any order, each time: each answer still
	// reaches the question it was given to.
	for range 8 {
		res, err = cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "remote_ask_two", Arguments: map[string]any{}})
		require.NoError(t, err)
		require.False(t, res.IsError, res.Content[0].(*mcp.TextContent).Text)
		assert.Equal(t, "Grace Hopper", res.Content[0].(*mcp.TextContent).Text)
	}

	t.Run("a client that cannot be asked", func(t *testing.T) {
		cs := serve(t, reg, nil, sopts)
		res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "remote_ask", Arguments: map[string]any{}})
		require.NoError(t, err)
		assert.Equal(t, "cancel <nil>", res.Content[0].(*mcp.TextContent).Text)
	})
}

// serveHTTP serves reg over streamable HTTP (runtime/mcp.HTTPHandler), stateful.
func serveHTTP(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	return serveHTTPWith(t, reg, copts, sopts)
}

func serveStatelessHTTP(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	return serveHTTPWith(t, reg, copts, sopts, toolmcp.WithStateless())
}

func serveHTTPWith(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions, opts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, opts...))
	t.Cleanup(srv.Close)
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "user", Version: "1"}, copts).Connect(t.Context(), &mcp.StreamableClientTransport{Endpoint: srv.URL}, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}

// serve serves reg over MCP, in memory, to a client with copts speaking sopts' protocol.
func serve(t *testing.T, reg *runtime.Registry, copts *mcp.ClientOptions, sopts *mcp.ClientSessionOptions) *mcp.ClientSession {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "proxy", Version: "1"}, nil)
	toolmcp.AddTools(server, reg, nil)
	serverSide, clientSide := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), serverSide, nil)
	require.NoError(t, err)
	t.Cleanup(func() { ss.Close() })
	cs, err := mcp.NewClient(&mcp.Implementation{Name: "user", Version: "1"}, copts).Connect(t.Context(), clientSide, sopts)
	require.NoError(t, err)
	t.Cleanup(func() { cs.Close() })
	return cs
}
