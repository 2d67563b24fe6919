package eino_test

import (
	"context"
	"fmt"
	"testing"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/adk"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	tooleino "github.com/toolgen-go/toolgen/runtime/eino"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// A generated tool in an eino ADK agent: the model's bad arguments come back as every
// problem with its JSON path, and the corrected call runs.
func ExampleToolsNodeConfig() {
	tooltest.RunExample(func(t testing.TB) { // in a test, the test's t
		// A scripted model stands in for the OpenAI API, so the example runs offline: it asks
		// for get_weather with a unit the schema does not allow, corrects the call after
		// reading the problem, then answers. It fails the test if the agent sends it
		// anything else, or stops before its last turn.
		srv := tooltest.ChatCompletionsModel(t,
			tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo","unit":"kelvin"}`}),
			tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`}).
				Expect(func(t testing.TB, req tooltest.Request) {
					read, _ := req.Result("call_1")
					fmt.Println("the model read:", read)
				}),
			tooltest.Reply("17 degrees in Tokyo.").
				Expect(func(t testing.TB, req tooltest.Request) {
					read, _ := req.Result("call_2")
					fmt.Println("then:", read)
				}),
		)
		ctx := context.Background()

		reg := runtime.NewRegistry()
		if err := reg.Add(weather.Tools()...); err != nil {
			t.Fatal(err)
		}
		toolsNode, err := tooleino.ToolsNodeConfig(reg, tooleino.Options{})
		if err != nil {
			t.Fatal(err)
		}
		model, err := einoopenai.NewChatModel(ctx, &einoopenai.ChatModelConfig{BaseURL: srv.URL(), APIKey: "key", Model: "gpt-5"})
		if err != nil {
			t.Fatal(err)
		}
		agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
			Name: "weather", Description: "answers weather questions", Instruction: "Use get_weather.",
			Model: model, ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: toolsNode},
		})
		if err != nil {
			t.Fatal(err)
		}
		runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent})
		iter := runner.Query(ctx, "Weather in Tokyo?", adk.WithSessionValues(map[string]any{tooleino.SessionKey: "conversation-1"}))
		for {
			ev, ok := iter.Next()
			if !ok {
				break
			}
			if ev.Err != nil {
				t.Fatal(ev.Err)
			}
			if msg, err := ev.Output.MessageOutput.GetMessage(); err == nil && msg.Role == "assistant" && msg.Content != "" {
				fmt.Println(msg.Content)
			}
		}
	})
	// Output:
	// the model read: Error: invalid arguments for get_weather: /unit: must be one of "celsius", "fahrenheit", got "kelvin"
	// Correct the arguments and call get_weather again.
	// then: {"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}
	// 17 degrees in Tokyo.
}
