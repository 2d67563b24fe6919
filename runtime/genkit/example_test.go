package genkit_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"
	oai "github.com/firebase/genkit/go/plugins/compat_oai/openai"
	"github.com/openai/openai-go/option"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolgenkit "github.com/toolgen-go/toolgen/runtime/genkit"
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

// A generated tool in Genkit's tool-calling loop: the model's bad arguments come back as
// every problem with its JSON path, and the corrected call runs.
func ExampleDefine() {
	srv := fakeOpenAI()
	defer srv.Close()
	ctx := context.Background()

	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	plugin := &oai.OpenAI{APIKey: "key", Opts: []option.RequestOption{option.WithBaseURL(srv.URL)}}
	g := genkit.Init(ctx, genkit.WithPlugins(plugin))
	tools, err := toolgenkit.Define(g, reg, toolgenkit.Options{})
	if err != nil {
		log.Fatal(err)
	}
	resp, err := genkit.Generate(ctx, g, ai.WithModel(plugin.Model(g, "gpt-4o")), ai.WithPrompt("Weather in Tokyo?"),
		ai.WithTools(tools.Refs()...), ai.WithMiddleware(tools.Middleware()))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(resp.Text())
	// Output:
	// the model read: "Error: invalid arguments for get_weather: /unit: must be one of \"celsius\", \"fahrenheit\", got \"kelvin\"\nCorrect the arguments and call get_weather again."
	// Tokyo: {"city":"Tokyo","conditions":"partly cloudy","temperature":17,"unit":"celsius"}
}
