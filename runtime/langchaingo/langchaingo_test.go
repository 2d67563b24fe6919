package langchaingo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toollangchaingo "github.com/toolgen-go/toolgen/runtime/langchaingo"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// run runs LangChainGo's OpenAI functions agent, through its executor, with the registry's
// tools, against api, a scripted model.
func run(t *testing.T, reg *runtime.Registry, api *tooltest.Model, session string) string {
	t.Helper()
	llm, err := openai.New(openai.WithBaseURL(api.URL()), openai.WithToken("test-key"), openai.WithModel("gpt-5"))
	require.NoError(t, err)
	ids := &toollangchaingo.CallIDs{}
	tools, err := toollangchaingo.Tools(reg, toollangchaingo.Options{CallIDs: ids, Session: func(context.Context) string { return session }})
	require.NoError(t, err)
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(llm, tools), agents.WithCallbacksHandler(ids), agents.WithMaxIterations(3))
	answer, err := chains.Run(context.Background(), executor, "Weather?")
	require.NoError(t, err)
	return answer
}

// whoAmI reports the call's id and session, as its handler sees them.
func whoAmI() runtime.Tool {
	return fixture.JSONTool("who_am_i", func(ctx context.Context, _ map[string]any) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		return runtime.TextResult(info.CallID + " in " + info.Session)
	})
}

// arg1 wraps arguments as LangChainGo's functions agent asks the model to send them.
func arg1(args string) string {
	out, _ := json.Marshal(map[string]string{"__arg1": args})
	return string(out)
}

func TestExecutorRunsValidAndInvalidCalls(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), whoAmI())
	api := tooltest.ChatCompletionsModel(t,
		tooltest.CallTools(
			tooltest.ToolCall{Name: "get_weather", Args: arg1(`{"city":"Tokyo"}`)},
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Paris","unit":"kelvin","days":3}`},
			tooltest.ToolCall{Name: "get_weather", Args: arg1(`{"city":"Atlantis"}`)},
			tooltest.ToolCall{Name: "who_am_i", Args: arg1(`{}`)}),
		tooltest.Reply("21 degrees in Tokyo."),
	)
	answer := run(t, reg, api, "conv-1")
	assert.Equal(t, "21 degrees in Tokyo.", answer)

	// The model was told the schema toolgen emitted, in the description.
	first := api.Request(t, 0)
	assert.Equal(t, []string{"get_weather", "who_am_i"}, first.Tools)
	var body struct {
		Tools []struct {
			Function struct{ Description string }
		}
	}
	require.NoError(t, json.Unmarshal(first.Body, &body))
	assert.Equal(t, "Gets the current weather for a city.\n\nInput: a JSON object matching this JSON Schema: "+fixture.WeatherSchema, body.Tools[0].Function.Description)

	sent := map[string]string{}
	var ids []string
	for _, res := range api.Request(t, 1).ToolResults {
		ids = append(ids, res.CallID)
		sent[res.CallID] = res.Content
	}
	assert.Equal(t, []string{"call_1", "call_2", "call_3", "call_4"}, ids)
	assert.JSONEq(t, `{"city":"Tokyo","temperature":21,"unit":"celsius"}`, sent["call_1"])
	assert.Equal(t, "Error: invalid arguments for get_weather:\n- /days: unknown property\n- /unit: must be one of \"celsius\", \"fahrenheit\", got \"kelvin\"\nCorrect the arguments and call get_weather again.", sent["call_2"])
	assert.Equal(t, "Error: no weather station in Atlantis", sent["call_3"])
	assert.Equal(t, "call_4 in conv-1", sent["call_4"], "the agent's call id and the session reach CallInfo")
}

func TestApprovalFailsClosedOrGoesToTheRegistry(t *testing.T) {
	for _, tc := range []struct {
		name     string
		opts     []runtime.Option
		want     string
		wantRuns int
	}{
		{name: "no approver", want: "Error: delete_file needs the user's approval and there is no way to ask for it here, so it was not run."},
		{name: "the registry's approver approves", wantRuns: 1, want: "deleted /tmp/a",
			opts: []runtime.Option{runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
				return runtime.Decision{Approved: req.CallID == "call_1" && string(req.RawArgs) == `{"path":"/tmp/a"}`}, nil
			}))}},
		{name: "the registry's approver denies", want: "Error: The user denied this call of delete_file, so it was not run: not today.",
			opts: []runtime.Option{runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
				return runtime.Decision{Reason: "not today"}, nil
			}))}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var j fixture.Journal
			reg := runtime.NewRegistry(tc.opts...)
			del := fixture.JSONTool("delete_file", func(_ context.Context, args map[string]any) runtime.Result {
				j.Add("deleted %v", args["path"])
				return runtime.TextResult(fmt.Sprintf("deleted %v", args["path"]))
			})
			del.Permission = runtime.PermissionConfirm
			require.NoError(t, reg.Add(del))
			api := tooltest.ChatCompletionsModel(t,
				tooltest.CallTools(tooltest.ToolCall{Name: "delete_file", Args: arg1(`{"path":"/tmp/a"}`)}),
				tooltest.Reply("Done."),
			)
			assert.Equal(t, "Done.", run(t, reg, api, "conv-1"))
			read, _ := api.Request(t, 1).Result("call_1")
			assert.Contains(t, read, tc.want)
			assert.Len(t, j.Lines(), tc.wantRuns)
		})
	}
}

func TestToolsRefusesAnUnknownName(t *testing.T) {
	_, err := toollangchaingo.Tools(fixture.NewRegistry(fixture.WeatherTool()), toollangchaingo.Options{}, "get_wether")
	assert.ErrorContains(t, err, `no tool "get_wether"`)
}

func TestPartsAreDescribed(t *testing.T) {
	reg := fixture.NewRegistry(fixture.JSONTool("chart", func(context.Context, map[string]any) runtime.Result { return fixture.PartsResult() }))
	tools, err := toollangchaingo.Tools(reg, toollangchaingo.Options{})
	require.NoError(t, err)
	out, err := tools[0].Call(context.Background(), `{}`)
	require.NoError(t, err)
	assert.Contains(t, out, "Here is the chart.\n\n[The tool also returned image (image/png), 3 bytes, not shown here: LangChainGo tool results carry text only.]")
	assert.Contains(t, out, "Resource: data.csv <https://example.com/data.csv> (text/csv, 42 bytes)")
}
