package tooltest_test

import (
	"context"
	"fmt"
	"log"
	"testing"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// In a test, t is the test's *testing.T; the examples run their body with RunExample, whose
// t prints what the test would have reported.

// A valid call, and an invalid one whose every problem is checked by its path.
func ExampleCall() {
	tooltest.RunExample(func(t testing.TB) {
		reg := runtime.NewRegistry()
		if err := reg.Add(weather.Tools()...); err != nil {
			t.Fatal(err)
		}
		tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).
			RequireJSON(t, `{"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}`)

		res := tooltest.Call(t, reg, "get_weather", `{"city":"","unit":"kelvin","days":9}`).
			RequireProblems(t, "/city", "/unit", "/days")
		for _, p := range res.Problems {
			fmt.Println(p)
		}
	})
	// Output:
	// /city: must be at least 1 character long, got 0
	// /unit: must be one of "celsius", "fahrenheit", got "kelvin"
	// /days: must be at most 7, got 9
}

// The registry served over MCP in memory, to the go-sdk client on the previous revision.
func ExampleConnectMCP() {
	tooltest.RunExample(func(t testing.TB) {
		reg := runtime.NewRegistry()
		if err := reg.Add(weather.Tools()...); err != nil {
			t.Fatal(err)
		}
		client := tooltest.ConnectMCP(t, reg, tooltest.WithProtocol("2025-11-25"))
		fmt.Println(client.Protocol(), client.ToolNames(t))
		res := client.Call(t, "get_weather", map[string]any{"city": "Oslo", "days": 1}).RequireOK(t)
		fmt.Println(string(res.Structured))
	})
	// Output:
	// 2025-11-25 [get_weather]
	// {"city":"Oslo","conditions":"partly cloudy","forecast":[{"day":1,"high":17,"low":13}],"temperature":16,"unit":"celsius"}
}

// A scripted approver: the first call is approved, the second denied, and the test fails
// for the answer nobody asked for.
func ExampleNewApprover() {
	tooltest.RunExample(func(t testing.TB) {
		approver := tooltest.NewApprover(t, tooltest.Approve("get_weather"), tooltest.Deny("get_weather", "not now"), tooltest.Approve("get_weather"))
		reg := runtime.NewRegistry(runtime.WithApprover(approver))
		tool := weather.Tools()[0]
		tool.Permission = runtime.PermissionConfirm // as //tool:confirm sets it
		if err := reg.Add(tool); err != nil {
			t.Fatal(err)
		}
		tooltest.Call(t, reg, "get_weather", `{"city":"Tokyo"}`).RequireOK(t)
		fmt.Println(tooltest.Call(t, reg, "get_weather", `{"city":"Paris"}`).RequireError(t).Text)
		for _, req := range approver.Requests() {
			fmt.Println("asked:", req.Tool, string(req.RawArgs))
		}
	})
	// Output:
	// The user denied this call of get_weather, so it was not run: not now. Do not call it again without asking the user.
	// asked: get_weather {"city":"Tokyo","days":0,"unit":"celsius"}
	// asked: get_weather {"city":"Paris","days":0,"unit":"celsius"}
	// FAIL: tooltest: approver answer 3 (approve for get_weather) was never asked for
}

// A scripted Chat Completions model driving an agent loop (here chatAgent, a loop on
// runtime/openai in this package's tests; in yours, your agent with the model's URL as its
// base URL): a bad call, the model reads
// the problem and corrects it, then answers. The last turn is never reached, and the test
// fails for it.
func ExampleChatCompletionsModel() {
	tooltest.RunExample(func(t testing.TB) {
		reg := runtime.NewRegistry()
		if err := reg.Add(weather.Tools()...); err != nil {
			t.Fatal(err)
		}
		model := tooltest.ChatCompletionsModel(t,
			tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo","unit":"kelvin"}`}),
			tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`}).
				Expect(func(t testing.TB, req tooltest.Request) {
					read, _ := req.Result("call_1")
					fmt.Println("the model read:", read)
				}),
			tooltest.Reply("17 degrees in Tokyo."),
			tooltest.Reply("Anything else?"),
		)
		answer, err := chatAgent(context.Background(), model.URL(), reg, false)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(answer)
	})
	// Output:
	// the model read: Error: invalid arguments for get_weather: /unit: must be one of "celsius", "fahrenheit", got "kelvin"
	// Correct the arguments and call get_weather again.
	// 17 degrees in Tokyo.
	// FAIL: tooltest: turn 4 of the Chat Completions model (text "Anything else?") was never requested: the agent stopped after 3 requests
}

// An Example function has no t: RunExample gives it one, printing what a test would report.
func ExampleRunExample() {
	tooltest.RunExample(func(t testing.TB) {
		t.Cleanup(func() { fmt.Println("cleaned up") })
		t.Errorf("reported, and the example goes on")
		t.Fatalf("reported, and the example stops")
		fmt.Println("never printed")
	})
	// Output:
	// FAIL: reported, and the example goes on
	// FAIL: reported, and the example stops
	// cleaned up
}
