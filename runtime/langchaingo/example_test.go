package langchaingo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/tmc/langchaingo/agents"
	"github.com/tmc/langchaingo/chains"
	"github.com/tmc/langchaingo/llms/openai"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toollangchaingo "github.com/toolgen-go/toolgen/runtime/langchaingo"
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
			_, _ = io.WriteString(w, fixture.ChatCompletion("", fixture.ChatCall{ID: "call_1", Name: "get_weather", Args: arg1(`{"city":"Tokyo","unit":"kelvin"}`)}))
		case 2:
			fmt.Println("the model read:", last.Content)
			_, _ = io.WriteString(w, fixture.ChatCompletion("", fixture.ChatCall{ID: "call_2", Name: "get_weather", Args: arg1(`{"city":"Tokyo"}`)}))
		default:
			_, _ = io.WriteString(w, fixture.ChatCompletion("Tokyo: "+last.Content))
		}
	}))
}

// A generated tool in LangChainGo's OpenAI functions agent: the model's bad arguments come
// back as every problem with its JSON path, and the corrected call runs.
func ExampleTools() {
	srv := fakeOpenAI()
	defer srv.Close()

	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	ids := &toollangchaingo.CallIDs{}
	tools, err := toollangchaingo.Tools(reg, toollangchaingo.Options{CallIDs: ids})
	if err != nil {
		log.Fatal(err)
	}
	llm, err := openai.New(openai.WithBaseURL(srv.URL), openai.WithToken("key"), openai.WithModel("gpt-5"))
	if err != nil {
		log.Fatal(err)
	}
	executor := agents.NewExecutor(agents.NewOpenAIFunctionsAgent(llm, tools), agents.WithCallbacksHandler(ids))
	answer, err := chains.Run(context.Background(), executor, "Weather in Tokyo?")
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(answer)
	// Output:
	// the model read: Error: invalid arguments for get_weather: /unit: must be one of "celsius", "fahrenheit", got "kelvin"
	// Correct the arguments and call get_weather again.
	// Tokyo: {"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy"}
}
