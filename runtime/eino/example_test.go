package eino_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	einoopenai "github.com/cloudwego/eino-ext/components/model/openai"
	"github.com/cloudwego/eino/adk"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	tooleino "github.com/toolgen-go/toolgen/runtime/eino"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
)

// fakeOpenAI stands in for the OpenAI API so the example runs offline: it first asks for
// get_weather with a unit the schema does not allow, then corrects it after reading the
// problem, then answers with what the tool returned.
func fakeOpenAI() *httptest.Server {
	turn := 0
	return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Role, Content string }
		}
		body, _ := io.ReadAll(r.Body)
		_ = json.Unmarshal(body, &req)
		last := req.Messages[len(req.Messages)-1]
		turn++
		w.Header().Set("Content-Type", "application/json")
		switch turn {
		case 1:
			_, _ = io.WriteString(w, fixture.ChatCompletion("", fixture.ChatCall{ID: "call_1", Name: "get_weather", Args: `{"city":"Tokyo","unit":"kelvin"}`}))
		case 2:
			fmt.Println("the model read:", last.Content)
			_, _ = io.WriteString(w, fixture.ChatCompletion("", fixture.ChatCall{ID: "call_2", Name: "get_weather", Args: `{"city":"Tokyo"}`}))
		default:
			_, _ = io.WriteString(w, fixture.ChatCompletion("Tokyo: "+last.Content))
		}
	}))
}

// A generated tool in an eino ADK agent: the model's bad arguments come back as every
// problem with its JSON path, and the corrected call runs.
func ExampleToolsNodeConfig() {
	srv := fakeOpenAI()
	defer srv.Close()
	ctx := context.Background()

	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	toolsNode, err := tooleino.ToolsNodeConfig(reg, tooleino.Options{})
	if err != nil {
		log.Fatal(err)
	}
	model, err := einoopenai.NewChatModel(ctx, &einoopenai.ChatModelConfig{BaseURL: srv.URL, APIKey: "key", Model: "gpt-5"})
	if err != nil {
		log.Fatal(err)
	}
	agent, err := adk.NewChatModelAgent(ctx, &adk.ChatModelAgentConfig{
		Name: "weather", Description: "answers weather questions", Instruction: "Use get_weather.",
		Model: model, ToolsConfig: adk.ToolsConfig{ToolsNodeConfig: toolsNode},
	})
	if err != nil {
		log.Fatal(err)
	}
	runner := adk.NewRunner(ctx, adk.RunnerConfig{Agent: agent})
	iter := runner.Query(ctx, "Weather in Tokyo?", adk.WithSessionValues(map[string]any{tooleino.SessionKey: "conversation-1"}))
	for {
		ev, ok := iter.Next()
		if !ok {
			break
		}
		if ev.Err != nil {
			log.Fatal(ev.Err)
		}
		if msg, err := ev.Output.MessageOutput.GetMessage(); err == nil && msg.Role == "assistant" && msg.Content != "" {
			fmt.Println(msg.Content)
		}
	}
	// Output:
	// the model read: Error: invalid arguments for get_weather: /unit: must be one of "celsius", "fahrenheit", got "kelvin"
	// Correct the arguments and call get_weather again.
	// Tokyo: {"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}
}
