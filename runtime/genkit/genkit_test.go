package genkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	oai "github.com/firebase/genkit/go/plugins/compat_oai/openai"
	"github.com/openai/openai-go/option"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolgenkit "github.com/toolgen-go/toolgen/runtime/genkit"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// setup returns a Genkit instance whose model is Genkit's OpenAI plugin talking to api, with
// the registry's tools defined in it, and the options every Generate of the test passes.
func setup(t *testing.T, reg *runtime.Registry, api *tooltest.Model) (*genkit.Genkit, *toolgenkit.Tools, []ai.GenerateOption) {
	t.Helper()
	ctx := context.Background()
	plugin := &oai.OpenAI{APIKey: "test-key", Opts: []option.RequestOption{option.WithBaseURL(api.URL()), option.WithMaxRetries(0)}}
	g := genkit.Init(ctx, genkit.WithPlugins(plugin))
	tools, err := toolgenkit.Define(g, reg, toolgenkit.Options{Session: func(context.Context) string { return "conv-1" }})
	require.NoError(t, err)
	return g, tools, []ai.GenerateOption{ai.WithModel(plugin.Model(g, "gpt-4o")), ai.WithTools(tools.Refs()...), ai.WithMiddleware(tools.Middleware())}
}

// whoAmI reports the call's session, as its handler sees it.
func whoAmI() runtime.Tool {
	return fixture.JSONTool("who_am_i", func(ctx context.Context, _ map[string]any) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		return runtime.TextResult("in " + info.Session)
	})
}

func TestGenerateRunsValidAndInvalidCalls(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool(), whoAmI())
	api := tooltest.ChatCompletionsModel(t,
		tooltest.CallTools(
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`},
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Paris","unit":"kelvin","days":3}`},
			tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Atlantis"}`},
			tooltest.ToolCall{Name: "who_am_i", Args: `{}`}),
		tooltest.Reply("21 degrees in Tokyo."),
	)
	g, _, opts := setup(t, reg, api)

	resp, err := genkit.Generate(context.Background(), g, append(opts, ai.WithPrompt("Weather?"))...)
	require.NoError(t, err)
	assert.Equal(t, "21 degrees in Tokyo.", resp.Text())

	// The model was told the schema toolgen emitted, though Genkit holds an empty one.
	first := api.Request(t, 0)
	assert.ElementsMatch(t, []string{"get_weather", "who_am_i"}, first.Tools)
	var body struct {
		Tools []struct {
			Function struct {
				Name       string
				Parameters json.RawMessage
			}
		}
	}
	require.NoError(t, json.Unmarshal(first.Body, &body))
	declared := map[string]json.RawMessage{}
	for _, tool := range body.Tools {
		declared[tool.Function.Name] = tool.Function.Parameters
	}
	fixture.JSONEqual(t, "parameters", declared["get_weather"], fixture.WeatherSchema)

	sent := map[string]string{}
	var ids []string
	for _, res := range api.Request(t, 1).ToolResults {
		ids = append(ids, res.CallID)
		sent[res.CallID] = res.Content
	}
	assert.ElementsMatch(t, []string{"call_1", "call_2", "call_3", "call_4"}, ids)
	assert.JSONEq(t, `{"city":"Tokyo","temperature":21,"unit":"celsius"}`, sent["call_1"])
	var invalid string
	require.NoError(t, json.Unmarshal([]byte(sent["call_2"]), &invalid), "a text output reaches the model as a JSON string")
	assert.Equal(t, "Error: invalid arguments for get_weather:\n- /days: unknown property\n- /unit: must be one of \"celsius\", \"fahrenheit\", got \"kelvin\"\nCorrect the arguments and call get_weather again.", invalid)
	assert.Equal(t, `"Error: no weather station in Atlantis"`, sent["call_3"])
	assert.Equal(t, `"in conv-1"`, sent["call_4"], "the session reaches CallInfo")
}

func TestApprovalInterruptsAndRestarts(t *testing.T) {
	for _, tc := range []struct {
		name      string
		decision  runtime.Decision
		withQueue bool
		want      string
		wantRuns  int
	}{
		{name: "approved", decision: runtime.Decision{Approved: true, By: "ana"}, want: `"deleted /tmp/a"`, wantRuns: 1},
		{name: "approved with edited arguments", decision: runtime.Decision{Approved: true, Args: json.RawMessage(`{"path":"/tmp/b"}`)}, want: `"deleted /tmp/b"`, wantRuns: 1},
		{name: "denied", decision: runtime.Decision{Reason: "keep it"}, want: "keep it"},
		{name: "approved through the registry's queue", decision: runtime.Decision{Approved: true}, withQueue: true, want: `"deleted /tmp/a"`, wantRuns: 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var j fixture.Journal
			var ropts []runtime.Option
			if tc.withQueue {
				ropts = append(ropts, runtime.WithApprovalQueue())
			}
			reg := runtime.NewRegistry(ropts...)
			del := fixture.JSONTool("delete_file", func(_ context.Context, args map[string]any) runtime.Result {
				j.Add("deleted %v", args["path"])
				return runtime.TextResult(fmt.Sprintf("deleted %v", args["path"]))
			})
			del.Permission, del.ConfirmReason = runtime.PermissionConfirm, "deletes a file"
			require.NoError(t, reg.Add(del))
			api := tooltest.ChatCompletionsModel(t,
				tooltest.CallTools(tooltest.ToolCall{Name: "delete_file", Args: `{"path":"/tmp/a"}`}),
				tooltest.Reply("Done."),
			)
			g, tools, opts := setup(t, reg, api)
			ctx := context.Background()

			resp, err := genkit.Generate(ctx, g, append(opts, ai.WithPrompt("Delete /tmp/a"))...)
			require.NoError(t, err)
			require.Equal(t, ai.FinishReasonInterrupted, resp.FinishReason)
			assert.Empty(t, j.Lines(), "nothing runs before the decision")
			interrupts := resp.Interrupts()
			require.Len(t, interrupts, 1)
			approval, ok := toolgenkit.ApprovalOf(interrupts[0])
			require.True(t, ok)
			assert.Equal(t, "delete_file", approval.Tool)
			assert.Equal(t, "conv-1", approval.Session)
			assert.JSONEq(t, `{"path":"/tmp/a"}`, string(approval.Args))
			assert.Equal(t, "deletes a file", approval.Reason)

			restart, err := tools.Resume(interrupts[0], tc.decision)
			require.NoError(t, err)
			resp, err = genkit.Generate(ctx, g, append(opts, ai.WithMessages(resp.History()...), ai.WithToolRestarts(restart))...)
			require.NoError(t, err)
			assert.Equal(t, "Done.", resp.Text())
			read, _ := api.Request(t, 1).Result("call_1")
			assert.Contains(t, read, tc.want)
			assert.Len(t, j.Lines(), tc.wantRuns, "an approved call runs once, a denied one never")
		})
	}
}

func TestResumeRefusesOtherParts(t *testing.T) {
	reg := fixture.NewRegistry(fixture.WeatherTool())
	g := genkit.Init(context.Background())
	tools, err := toolgenkit.Define(g, reg, toolgenkit.Options{})
	require.NoError(t, err)
	_, err = tools.Resume(ai.NewTextPart("hi"), runtime.Decision{Approved: true})
	assert.ErrorContains(t, err, "not a toolgen approval interrupt")
	_, ok := toolgenkit.ApprovalOf(nil)
	assert.False(t, ok)
	_, err = toolgenkit.Define(g, reg, toolgenkit.Options{}, "get_wether")
	assert.ErrorContains(t, err, `no tool "get_wether"`)
}
