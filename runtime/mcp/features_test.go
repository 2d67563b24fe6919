//lint:file-ignore SA1019 the tests drive the logging and sampling helpers, deprecated by protocol 2026-07-28 (SEP-2577).

package mcp_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// weatherPrompt is get_weather served as a prompt: typed arguments (a required city, an enum
// unit) with a real decoder.
func weatherPrompt() runtime.Tool {
	t := fixture.WeatherTool()
	t.Name, t.Title = "weather_brief", "Weather brief"
	return t
}

// weatherResource is get_weather served as a resource template.
func weatherResource() runtime.Tool {
	t := fixture.WeatherTool()
	t.Name = "weather"
	t.Metadata = map[string]string{toolmcp.MetaURI: "weather://{city}/{unit}"}
	return t
}

var pixel = []byte{0x89, 'P', 'N', 'G'}

// logoResource is a static binary resource.
func logoResource() runtime.Tool {
	t := funcTool("logo", func(context.Context, funcArgs) runtime.Result {
		return runtime.Result{Parts: []runtime.Part{runtime.ImagePart("image/png", pixel)}}
	})
	t.Metadata = map[string]string{toolmcp.MetaURI: "test://logo", toolmcp.MetaMIMEType: "image/png"}
	return t
}

func serveInMemory(t *testing.T, copts *mcp.ClientOptions, opts ...toolmcp.Option) *mcp.ClientSession {
	t.Helper()
	return connectInMemory(t, toolmcp.NewServer(runtime.NewRegistry(), opts...), copts, legacy)
}

func TestPromptsFromTools(t *testing.T) {
	eachServing(t, runtime.NewRegistry(), nil, func(t *testing.T, _ serving, cs *mcp.ClientSession) { testPrompts(t, cs) }, toolmcp.WithPrompts(weatherPrompt()))
}

func testPrompts(t *testing.T, cs *mcp.ClientSession) {
	ctx := t.Context()

	list, err := cs.ListPrompts(ctx, nil)
	require.NoError(t, err)
	fixture.JSONEqual(t, "prompts/list", list.Prompts, `[{"name":"weather_brief","title":"Weather brief","description":"Gets the current weather for a city.",
		"arguments":[{"name":"city","required":true},{"name":"unit"}]}]`)

	got, err := cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "weather_brief", Arguments: map[string]string{"city": "Tokyo", "unit": "fahrenheit"}})
	require.NoError(t, err)
	require.Len(t, got.Messages, 1)
	assert.Equal(t, mcp.Role("user"), got.Messages[0].Role)
	assert.Contains(t, got.Messages[0].Content.(*mcp.TextContent).Text, `"unit":"fahrenheit"`)

	// The tool's decoder checks the arguments, and every problem comes back.
	_, err = cs.GetPrompt(ctx, &mcp.GetPromptParams{Name: "weather_brief", Arguments: map[string]string{"unit": "kelvin", "extra": "1"}})
	var rpcErr *jsonrpc.Error
	require.ErrorAs(t, err, &rpcErr)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpcErr.Code)
	for _, want := range []string{"/unit", "kelvin", "city"} {
		assert.Contains(t, rpcErr.Message, want)
	}

	// The enum completes.
	c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "weather_brief"}, Argument: mcp.CompleteParamsArgument{Name: "unit", Value: "f"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"fahrenheit"}, c.Completion.Values)
	assert.Equal(t, 1, c.Completion.Total)
	c, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "weather_brief"}, Argument: mcp.CompleteParamsArgument{Name: "city", Value: "T"}})
	require.NoError(t, err)
	assert.Empty(t, c.Completion.Values, "a free string has nothing to complete")
	_, err = cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/prompt", Name: "nope"}, Argument: mcp.CompleteParamsArgument{Name: "unit"}})
	assert.Error(t, err)
}

func TestPromptMessagesFromParts(t *testing.T) {
	prompt := funcTool("look", func(context.Context, funcArgs) runtime.Result {
		return runtime.Result{Text: "Describe the image above.", Parts: []runtime.Part{runtime.ImagePart("image/png", pixel), runtime.TextResourcePart("test://doc", "text/plain", "doc")}}
	})
	cs := serveInMemory(t, nil, toolmcp.WithPrompts(prompt))
	got, err := cs.GetPrompt(t.Context(), &mcp.GetPromptParams{Name: "look"})
	require.NoError(t, err)
	fixture.JSONEqual(t, "messages", got.Messages, `[{"role":"user","content":{"type":"image","data":"iVBORw==","mimeType":"image/png"}},
		{"role":"user","content":{"type":"resource","resource":{"uri":"test://doc","mimeType":"text/plain","text":"doc"}}},
		{"role":"user","content":{"type":"text","text":"Describe the image above."}}]`)
}

func TestResourcesFromTools(t *testing.T) {
	var hooked atomic.Bool
	eachServing(t, runtime.NewRegistry(), nil, func(t *testing.T, s serving, cs *mcp.ClientSession) {
		require.True(t, hooked.Load(), "the hook reaches the server")
		testResources(t, s, cs)
	}, toolmcp.WithResources(weatherResource(), logoResource()), toolmcp.WithServerHook(func(*mcp.Server) { hooked.Store(true) }))
}

func testResources(t *testing.T, s serving, cs *mcp.ClientSession) {
	ctx := t.Context()

	resources, err := cs.ListResources(ctx, nil)
	require.NoError(t, err)
	fixture.JSONEqual(t, "resources/list", resources.Resources, `[{"name":"logo","description":"Test tool logo.","mimeType":"image/png","uri":"test://logo"}]`)
	templates, err := cs.ListResourceTemplates(ctx, nil)
	require.NoError(t, err)
	var uris []string
	for _, tpl := range templates.ResourceTemplates {
		uris = append(uris, tpl.URITemplate)
	}
	assert.Contains(t, uris, "weather://{city}/{unit}")

	read, err := cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://Oslo/celsius"})
	require.NoError(t, err)
	require.Len(t, read.Contents, 1)
	assert.Equal(t, "weather://Oslo/celsius", read.Contents[0].URI)
	assert.Equal(t, "application/json", read.Contents[0].MIMEType, "a structured result is JSON")
	assert.JSONEq(t, `{"city":"Oslo","temperature":21,"unit":"celsius"}`, read.Contents[0].Text)
	if s.protocol >= "2026-07-28" {
		// Its handler may answer each caller differently: no shared cache may keep it.
		assert.Equal(t, "private", read.CacheScope)
	}

	_, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "weather://Oslo/kelvin"})
	var rpcErr *jsonrpc.Error
	require.ErrorAs(t, err, &rpcErr)
	assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpcErr.Code)
	assert.Contains(t, rpcErr.Message, "/unit")

	read, err = cs.ReadResource(ctx, &mcp.ReadResourceParams{URI: "test://logo"})
	require.NoError(t, err)
	fixture.JSONEqual(t, "binary", read.Contents, `[{"uri":"test://logo","mimeType":"image/png","blob":"iVBORw=="}]`)

	c, err := cs.Complete(ctx, &mcp.CompleteParams{Ref: &mcp.CompleteReference{Type: "ref/resource", URI: "weather://{city}/{unit}"}, Argument: mcp.CompleteParamsArgument{Name: "unit", Value: "c"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"celsius"}, c.Completion.Values)

	// Listed resources can be subscribed to; a template's URIs, without bound, cannot.
	// Stateless HTTP has no session to hold a subscription.
	if s.transport == statelessHTTP {
		return
	}
	require.NoError(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "test://logo"}))
	require.NoError(t, cs.Unsubscribe(ctx, &mcp.UnsubscribeParams{URI: "test://logo"}))
	if s.protocol < "2026-07-28" {
		// On 2026-07-28 the go-sdk client's Subscribe opens a subscriptions/listen stream in
		// the background and returns before the server answers; the server's refusal ends
		// that stream, unseen by the caller (docs/mcp.md, by protocol).
		assert.Error(t, cs.Subscribe(ctx, &mcp.SubscribeParams{URI: "weather://Oslo/celsius"}))
	}
}

func TestResourceUpdatesReachSubscribers(t *testing.T) {
	var server *mcp.Server
	updated := make(chan string, 1)
	cs := serveInMemory(t, &mcp.ClientOptions{ResourceUpdatedHandler: func(_ context.Context, req *mcp.ResourceUpdatedNotificationRequest) {
		updated <- req.Params.URI
	}}, toolmcp.WithResources(logoResource()), toolmcp.WithServerHook(func(s *mcp.Server) { server = s }))
	require.NoError(t, cs.Subscribe(t.Context(), &mcp.SubscribeParams{URI: "test://logo"}))
	require.NoError(t, server.ResourceUpdated(t.Context(), &mcp.ResourceUpdatedNotificationParams{URI: "test://logo"}))
	assert.Equal(t, "test://logo", <-updated)
}

func TestCompletionIsBounded(t *testing.T) {
	values := make([]string, 150)
	for i := range values {
		values[i] = fmt.Sprintf("v%03d", i)
	}
	enum, _ := json.Marshal(values)
	prompt := funcTool("pick", func(context.Context, funcArgs) runtime.Result { return runtime.TextResult("ok") })
	prompt.InputSchema = json.RawMessage(`{"type":"object","properties":{"choice":{"type":"string","enum":` + string(enum) + `}}}`)
	eachServing(t, runtime.NewRegistry(), nil, func(t *testing.T, _ serving, cs *mcp.ClientSession) { testCompletionBound(t, cs) }, toolmcp.WithPrompts(prompt))
}

func testCompletionBound(t *testing.T, cs *mcp.ClientSession) {
	ref := &mcp.CompleteReference{Type: "ref/prompt", Name: "pick"}
	c, err := cs.Complete(t.Context(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "choice"}})
	require.NoError(t, err)
	assert.Len(t, c.Completion.Values, toolmcp.MaxCompletionValues)
	assert.Equal(t, 150, c.Completion.Total)
	assert.True(t, c.Completion.HasMore)
	c, err = cs.Complete(t.Context(), &mcp.CompleteParams{Ref: ref, Argument: mcp.CompleteParamsArgument{Name: "choice", Value: "v14"}})
	require.NoError(t, err)
	assert.Equal(t, []string{"v140", "v141", "v142", "v143", "v144", "v145", "v146", "v147", "v148", "v149"}, c.Completion.Values)
	assert.False(t, c.Completion.HasMore)
}

func TestHTTPOptionsKeepTheEventStore(t *testing.T) {
	store := &countingEvents{MemoryEventStore: mcp.NewMemoryEventStore(nil)}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithEventStore(store), toolmcp.WithHTTPOptions(mcp.StreamableHTTPOptions{})))
	t.Cleanup(srv.Close)
	_, err := httpClient(t, srv.URL, nil, nil).CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info"})
	require.NoError(t, err)
	assert.Positive(t, store.appended.Load())
}

func TestBadFeaturesPanicAtNewServer(t *testing.T) {
	noURI := funcTool("no_uri", nil)
	assert.PanicsWithError(t, `mcp: resource no_uri has no URI (Metadata["mcp.uri"], //tool:resource)`, func() {
		toolmcp.NewServer(runtime.NewRegistry(), toolmcp.WithResources(noURI))
	})
	assert.Panics(t, func() {
		toolmcp.NewServer(runtime.NewRegistry(), toolmcp.WithPrompts(weatherPrompt(), weatherPrompt()))
	})
}

func TestLogAndSample(t *testing.T) {
	tool := funcTool("think", func(ctx context.Context, _ funcArgs) runtime.Result {
		if err := toolmcp.Log(ctx, "info", "thinking"); err != nil {
			return runtime.ErrorResult(err)
		}
		_ = toolmcp.Log(ctx, "debug", map[string]any{"long": strings.Repeat("x", toolmcp.MaxLogBytes)})
		answer, err := toolmcp.SampleText(ctx, "What is 2+2?", 0)
		if err != nil {
			return runtime.ErrorResult(err)
		}
		return runtime.TextResult("model said " + answer)
	})
	var mu sync.Mutex
	var logs []*mcp.LoggingMessageParams
	var asked *mcp.CreateMessageParams
	copts := &mcp.ClientOptions{
		LoggingMessageHandler: func(_ context.Context, req *mcp.LoggingMessageRequest) {
			mu.Lock()
			defer mu.Unlock()
			logs = append(logs, req.Params)
		},
		CreateMessageHandler: func(_ context.Context, req *mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) {
			asked = req.Params
			return &mcp.CreateMessageResult{Model: "m", Role: "assistant", Content: &mcp.TextContent{Text: "4"}}, nil
		},
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tool))
	cs := connectInMemory(t, toolmcp.NewServer(reg), copts, legacy)
	ctx := t.Context()
	require.NoError(t, cs.SetLoggingLevel(ctx, &mcp.SetLoggingLevelParams{Level: "debug"}))
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "think"})
	require.NoError(t, err)
	require.False(t, res.IsError, "%+v", res.Content)
	assert.Equal(t, "model said 4", res.Content[0].(*mcp.TextContent).Text)
	require.NotNil(t, asked)
	assert.Equal(t, int64(toolmcp.DefaultSampleMaxTokens), asked.MaxTokens)

	require.Eventually(t, func() bool { mu.Lock(); defer mu.Unlock(); return len(logs) == 2 }, 10*time.Second, 5*time.Millisecond)
	assert.Equal(t, "thinking", logs[0].Data)
	assert.Equal(t, "think", logs[0].Logger)
	long, _ := logs[1].Data.(string)
	assert.LessOrEqual(t, len(long), toolmcp.MaxLogBytes, "long data is cut")
	assert.True(t, strings.HasSuffix(long, "…"))

	// Outside a call, and to a client without sampling, the helpers say why.
	assert.ErrorIs(t, toolmcp.Log(ctx, "info", "x"), toolmcp.ErrNotMCPCall)
	_, err = toolmcp.SampleText(ctx, "x", 1)
	assert.ErrorIs(t, err, toolmcp.ErrNotMCPCall)
	cs = connectInMemory(t, toolmcp.NewServer(reg), nil, legacy)
	res, err = cs.CallTool(ctx, &mcp.CallToolParams{Name: "think"})
	require.NoError(t, err)
	assert.True(t, res.IsError)
}

// countingEvents is the SDK's memory event store, counting what it keeps.
type countingEvents struct {
	*mcp.MemoryEventStore
	appended atomic.Int32
}

func (s *countingEvents) Append(ctx context.Context, session, stream string, data []byte) error {
	s.appended.Add(1)
	return s.MemoryEventStore.Append(ctx, session, stream, data)
}

func TestHTTPHandlerTakesAnEventStore(t *testing.T) {
	store := &countingEvents{MemoryEventStore: mcp.NewMemoryEventStore(nil)}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(callInfoTool()))
	srv := httptest.NewServer(toolmcp.HTTPHandler(reg, toolmcp.WithEventStore(store)))
	t.Cleanup(srv.Close)
	cs := httpClient(t, srv.URL, nil, nil)
	res, err := cs.CallTool(t.Context(), &mcp.CallToolParams{Name: "call_info"})
	require.NoError(t, err)
	callInfoOf(t, res)
	assert.Positive(t, store.appended.Load(), "the stream's events are kept for resumption")
	data, _ := json.Marshal(res)
	assert.NotContains(t, string(data), "error")
}
