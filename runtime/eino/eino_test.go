package eino_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	tooleino "github.com/toolgen-go/toolgen/runtime/eino"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// memoryCheckpoints is an adk.CheckPointStore in memory.
type memoryCheckpoints struct {
	mu sync.Mutex
	m  map[string][]byte
}

func (s *memoryCheckpoints) Get(_ context.Context, id string) ([]byte, bool, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	b, ok := s.m[id]
	return b, ok, nil
}

func (s *memoryCheckpoints) Set(_ context.Context, id string, b []byte) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.m == nil {
		s.m = map[string][]byte{}
	}
	s.m[id] = b
	return nil
}

// newRunner returns an ADK runner of a ChatModelAgent (eino's ReAct agent) whose chat model is
// eino-ext's OpenAI model talking to api, a scripted model, with the registry's tools.
func newRunner(t *testing.T, reg *runtime.Registry, api *tooltest.Model, tools ...string) *adk.Runner {
	t.Helper()
	ctx := context.Background()
	model, err := einoopenai.NewChatModel(ctx, &einoopenai.ChatModelConfig{BaseURL: api.URL(), APIKey: "test-key", Model: "gpt-5"})
	require.NoError(t, err)
	toolsNode, err := tooleino.ToolsNodeConfig(reg, tooleino.Options{}, tools...)
	require.NoError(t, err)
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "assistant", Description: "answers with tools", Instruction: "Use the tools.", Model: model,
		ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: toolsNode},
	})
	require.NoError(t, err)
	return adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent, CheckPointStore: &memoryCheckpoints{}})
}

// drain reads a run's events: the tool messages, the last assistant text, and the interrupt,
// if the run stopped for one.
func drain(t *testing.T, iter *adk.AsyncIterator[*adk.AgentEvent]) (toolMsgs map[string]string, final string, interrupt *adk.InterruptInfo) {
	t.Helper()
	toolMsgs = map[string]string{}
	for {
		ev, ok := iter.Next()
		if !ok {
			return toolMsgs, final, interrupt
		}
		require.NoError(t, ev.Err)
		if ev.Action != nil && ev.Action.Interrupted != nil {
			interrupt = ev.Action.Interrupted
		}
		if ev.Output == nil || ev.Output.MessageOutput == nil {
			continue
		}
		msg, err := ev.Output.MessageOutput.GetMessage()
		require.NoError(t, err)
		switch msg.Role {
		case schema.Tool:
			toolMsgs[msg.ToolCallID] = msg.Content
		case schema.Assistant:
			final = msg.Content
		}
	}
}

// whoAmI reports the call's id and session, as its handler sees them.
func whoAmI() runtime.Tool {
	return fixture.JSONTool("who_am_i", func(ctx context.Context, _ map[string]any) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		return runtime.TextResult(info.CallID + " in " + info.Session)
	})
}

func TestAgentRunsValidAndInvalidCalls(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), whoAmI())
	api := tooltest.ChatCompletionsModel(t,
		tooltest.CallTools(
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`},
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Paris","unit":"kelvin","days":3}`},
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Atlantis"}`},
			tooltest.ToolCall{Name: "who_am_i", Args: `{}`},
			tooltest.ToolCall{Name: "get_wether", Args: `{"city":"Oslo"}`}),
		tooltest.Reply("21 degrees in Tokyo."),
	)
	runner := newRunner(t, reg, api)

	iter := runner.Query(context.Background(), "Weather?", adk.WithSessionValues(map[string]any{tooleino.SessionKey: "conv-1"}))
	toolMsgs, final, interrupt := drain(t, iter)
	require.Nil(t, interrupt)
	assert.Equal(t, "21 degrees in Tokyo.", final)

	// The model was told the schema toolgen emitted.
	first := api.Request(t, 0)
	assert.Equal(t, []string{"get_weather", "who_am_i"}, first.Tools)
	var body struct{ Tools []json.RawMessage }
	require.NoError(t, json.Unmarshal(first.Body, &body))
	fixture.JSONEqual(t, "get_weather declared", body.Tools[0], `{"type":"function","function":{"name":"get_weather","description":"Gets the current weather for a city.","parameters":`+fixture.WeatherSchema+`}}`)

	// What the model read, in the second request: every result under its call id.
	sent := map[string]string{}
	var ids []string
	for _, res := range api.Request(t, 1).ToolResults {
		ids = append(ids, res.CallID)
		sent[res.CallID] = res.Content
	}
	assert.Equal(t, []string{"call_1", "call_2", "call_3", "call_4", "call_5"}, ids)
	assert.JSONEq(t, `{"city":"Tokyo","temperature":21,"unit":"celsius"}`, sent["call_1"])
	assert.Equal(t, "Error: invalid arguments for get_weather:\n- /days: unknown property\n- /unit: must be one of \"celsius\", \"fahrenheit\", got \"kelvin\"\nCorrect the arguments and call get_weather again.", sent["call_2"])
	assert.Equal(t, "Error: no weather station in Atlantis", sent["call_3"])
	assert.Equal(t, "call_4 in conv-1", sent["call_4"], "eino's call id and the ADK session reach CallInfo")
	assert.Contains(t, sent["call_5"], `Error: unknown tool "get_wether"; did you mean "get_weather"?`)
	for id, text := range sent {
		if id != "call_5" {
			assert.Equal(t, text, toolMsgs[id], "the agent's event for %s", id)
		}
	}
}

// deleteFile is a //tool:confirm tool whose runs the journal records.
func deleteFile(j *fixture.Journal) runtime.Tool {
	t := fixture.JSONTool("delete_file", func(_ context.Context, args map[string]any) runtime.Result {
		j.Add("deleted %v", args["path"])
		return runtime.TextResult(fmt.Sprintf("deleted %v", args["path"]))
	})
	t.Permission, t.ConfirmReason, t.Risk = runtime.PermissionConfirm, "deletes a file", runtime.Risk("high")
	return t
}

func TestApprovalInterruptsAndResumes(t *testing.T) {
	for _, tc := range []struct {
		name      string
		decision  any
		wantTool  string
		wantRuns  int
		withQueue bool
	}{
		{name: "approved", decision: runtime.Decision{Approved: true, By: "ana"}, wantTool: "deleted /tmp/a", wantRuns: 1},
		{name: "approved with edited arguments", decision: &runtime.Decision{Approved: true, Args: json.RawMessage(`{"path":"/tmp/b"}`)}, wantTool: "deleted /tmp/b", wantRuns: 1},
		{name: "denied", decision: runtime.Decision{Reason: "keep it"}, wantTool: "keep it", wantRuns: 0},
		{name: "resumed without a decision", decision: "yes", wantTool: "resumed without a decision", wantRuns: 0},
		{name: "approved through the registry's queue", decision: runtime.Decision{Approved: true}, wantTool: "deleted /tmp/a", wantRuns: 1, withQueue: true},
		{name: "denied through the registry's queue", decision: runtime.Decision{Reason: "keep it"}, wantTool: "keep it", wantRuns: 0, withQueue: true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var j fixture.Journal
			var opts []runtime.Option
			if tc.withQueue {
				opts = append(opts, runtime.WithApprovalQueue())
			}
			reg := runtime.NewRegistry(opts...)
			require.NoError(t, reg.Add(deleteFile(&j), fixture.WeatherTool()))
			api := tooltest.ChatCompletionsModel(t,
				tooltest.CallTools(tooltest.ToolCall{Name: "delete_file", Args: `{"path":"/tmp/a"}`}),
				tooltest.Reply("Done."),
			)
			runner := newRunner(t, reg, api, "delete_file")
			ctx := context.Background()

			_, _, interrupt := drain(t, runner.Query(ctx, "Delete /tmp/a", adk.WithCheckPointID("cp-1"),
				adk.WithSessionValues(map[string]any{tooleino.SessionKey: "conv-1"})))
			require.NotNil(t, interrupt, "a confirm call interrupts the run")
			assert.Zero(t, j.Count("deleted /tmp/a"), "nothing runs before the decision")
			var root *adk.InterruptCtx
			for _, ic := range interrupt.InterruptContexts {
				if ic.IsRootCause {
					root = ic
				}
			}
			require.NotNil(t, root)
			approval, ok := root.Info.(*tooleino.Approval)
			require.True(t, ok, "interrupt info: %#v", root.Info)
			assert.Equal(t, "delete_file", approval.Tool)
			assert.Equal(t, "call_1", approval.CallID)
			assert.Equal(t, "conv-1", approval.Session)
			assert.JSONEq(t, `{"path":"/tmp/a"}`, string(approval.Args))
			assert.Equal(t, "deletes a file", approval.Reason)
			assert.Equal(t, tc.withQueue, approval.RequestID != "")

			iter, err := runner.ResumeWithParams(ctx, "cp-1", &adk.ResumeParams{Targets: map[string]any{root.ID: tc.decision}})
			require.NoError(t, err)
			_, final, again := drain(t, iter)
			require.Nil(t, again)
			assert.Equal(t, "Done.", final)
			read, _ := api.Request(t, 1).Result("call_1")
			assert.Contains(t, read, tc.wantTool)
			assert.Len(t, j.Lines(), tc.wantRuns, "an approved call runs once, a denied one never")
			if tc.wantRuns == 0 {
				assert.True(t, strings.HasPrefix(read, "Error"), "a denial is an error the model reads: %q", read)
			}
		})
	}
}

func TestToolInfoRefusesASchemaEinoCannotCarry(t *testing.T) {
	tool := fixture.WeatherTool()
	tool.InputSchema = json.RawMessage(`{"type":"object","properties":{"n":{"type":"integer"}},"unevaluatedProperties":false}`)
	_, err := tooleino.ToolInfo(tool)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "cannot carry")

	reg := fixture.NewRegistry(fixture.WeatherTool())
	_, err = tooleino.Tools(reg, tooleino.Options{}, "get_wether")
	assert.ErrorContains(t, err, `no tool "get_wether"`)
}

func TestEnhancedToolReturnsParts(t *testing.T) {
	reg := fixture.NewRegistry(fixture.JSONTool("chart", func(context.Context, map[string]any) runtime.Result { return fixture.PartsResult() }))
	tools, err := tooleino.EnhancedTools(reg, tooleino.Options{})
	require.NoError(t, err)
	node, err := compose.NewToolNode(context.Background(), &compose.ToolsNodeConfig{Tools: tools})
	require.NoError(t, err)
	out, err := node.Invoke(context.Background(), schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "chart", Arguments: `{}`}}}))
	require.NoError(t, err)
	require.Len(t, out, 1)
	parts := out[0].UserInputMultiContent
	require.Len(t, parts, 6)
	assert.Equal(t, "Here is the chart.", parts[0].Text)
	require.NotNil(t, parts[1].Image)
	assert.Equal(t, "UE5H", *parts[1].Image.Base64Data)
	assert.Equal(t, "image/png", parts[1].Image.MIMEType)
	require.NotNil(t, parts[2].Audio)
	assert.Equal(t, "audio/wav", parts[2].Audio.MIMEType)
	assert.Equal(t, "Resource: data.csv <https://example.com/data.csv> (text/csv, 42 bytes)", parts[3].Text)
	assert.Equal(t, "Resource <file:///report.md> (text/markdown):\n# Report", parts[4].Text)
	require.NotNil(t, parts[5].File)
	assert.Equal(t, "application/pdf", parts[5].File.MIMEType)

	// The text form describes what it cannot carry.
	text, err := tooleino.Tools(reg, tooleino.Options{})
	require.NoError(t, err)
	node, err = compose.NewToolNode(context.Background(), &compose.ToolsNodeConfig{Tools: text})
	require.NoError(t, err)
	out, err = node.Invoke(context.Background(), schema.AssistantMessage("", []schema.ToolCall{{ID: "call_1", Type: "function", Function: schema.FunctionCall{Name: "chart", Arguments: `{}`}}}))
	require.NoError(t, err)
	assert.Contains(t, out[0].Content, "Here is the chart.\n\n[The tool also returned image (image/png), 3 bytes, not shown here: eino tool results carry text only.]")
}
