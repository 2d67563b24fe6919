package genkit_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	oai "github.com/firebase/genkit/go/plugins/compat_oai/openai"
	"github.com/openai/openai-go/option"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolgenkit "github.com/toolgen-go/toolgen/runtime/genkit"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// A generated tool in Genkit's tool-calling loop: the model's bad arguments come back as
// every problem with its JSON path, and the corrected call runs.
func ExampleDefine() {
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
		plugin := &oai.OpenAI{APIKey: "key", Opts: []option.RequestOption{option.WithBaseURL(srv.URL())}}
		g := genkit.Init(ctx, genkit.WithPlugins(plugin))
		tools, err := toolgenkit.Define(g, reg, toolgenkit.Options{})
		if err != nil {
			t.Fatal(err)
		}
		resp, err := genkit.Generate(ctx, g, ai.WithModel(plugin.Model(g, "gpt-4o")), ai.WithPrompt("Weather in Tokyo?"),
			ai.WithTools(tools.Refs()...), ai.WithMiddleware(tools.Middleware()))
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(resp.Text())
	})
	// Output:
	// the model read: "Error: invalid arguments for get_weather: /unit: must be one of \"celsius\", \"fahrenheit\", got \"kelvin\"\nCorrect the arguments and call get_weather again."
	// then: {"city":"Tokyo","conditions":"partly cloudy","temperature":17,"unit":"celsius"}
	// 17 degrees in Tokyo.
}
