package langchaingo_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toollangchaingo "github.com/toolgen-go/toolgen/runtime/langchaingo"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// A generated tool in LangChainGo's OpenAI functions agent: the model's bad arguments come
// back as every problem with its JSON path, and the corrected call runs.
func ExampleTools() {
	tooltest.RunExample(func(t testing.TB) { // in a test, the test's t
		// A scripted model stands in for the OpenAI API, so the example runs offline: it asks
		// for get_weather with a unit the schema does not allow, corrects the call after
		// reading the problem, then answers. It fails the test if the agent sends it
		// anything else, or stops before its last turn. LangChainGo's functions agent has
		// the model wrap its arguments in {"__arg1": …} (see arg1).
		srv := tooltest.ChatCompletionsModel(t,
			tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: arg1(`{"city":"Tokyo","unit":"kelvin"}`)}),
			tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: arg1(`{"city":"Tokyo"}`)}).
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

		reg := runtime.NewRegistry()
		if err := reg.Add(weather.Tools()...); err != nil {
			t.Fatal(err)
		}
		ids := &toollangchaingo.CallIDs{}
		tools, err := toollangchaingo.Tools(reg, toollangchaingo.Options{CallIDs: ids})
		if err != nil {
			t.Fatal(err)
		}
		llm, err := openai.New(openai.WithBaseURL(srv.URL()), openai.WithToken("key"), openai.WithModel("gpt-5"))
		if err != nil {
			t.Fatal(err)
		}
		executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(llm, tools), agents.WithCallbacksHandler(ids))
		answer, err := chains.Run(context.Background(), executor, "Weather in Tokyo?")
		if err != nil {
			t.Fatal(err)
		}
		fmt.Println(answer)
	})
	// Output:
	// the model read: Error: invalid arguments for get_weather: /unit: must be one of "celsius", "fahrenheit", got "kelvin"
	// Correct the arguments and call get_weather again.
	// then: {"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}
	// 17 degrees in Tokyo.
}
