// Command agent-gemini is an agent loop on the Gemini API with toolgen's get_weather tool: it
// declares the tool, lets the model call it (in parallel, possibly with mistakes), dispatches
// the function calls through the registry and answers with functionResponse parts until the
// model answers.
//
// With GEMINI_API_KEY set it talks to the real API (model GEMINI_MODEL, default
// gemini-2.5-flash); otherwise to a local fake model that makes a valid call, an invalid call
// and a failing call, and then checks the responses it receives. Either way it stops after
// at most maxTurns model turns.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolgemini "github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/gemini/geminisdk"
)

// maxTurns bounds the loop, so a model that keeps calling tools cannot run it forever.
const maxTurns = 5

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agent-gemini:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		return err
	}
	tool, err := geminisdk.Tool(reg.Tools())
	if err != nil {
		return err
	}

	model := os.Getenv("GEMINI_MODEL")
	if model == "" {
		model = "gemini-2.5-flash"
	}
	cfg := &genai.ClientConfig{APIKey: os.Getenv("GEMINI_API_KEY"), Backend: genai.BackendGeminiAPI}
	if cfg.APIKey != "" {
		fmt.Fprintln(out, "== using the Gemini API, model", model)
	} else {
		fake := httptest.NewServer(&fakeModel{})
		defer fake.Close()
		cfg.APIKey, cfg.HTTPOptions.BaseURL = "fake", fake.URL
		fmt.Fprintln(out, "== GEMINI_API_KEY is not set: using a local fake model")
	}
	client, err := genai.NewClient(ctx, cfg)
	if err != nil {
		return err
	}

	config := &genai.GenerateContentConfig{Tools: []*genai.Tool{tool}}
	contents := []*genai.Content{genai.NewContentFromText("What is the weather in Tokyo, in Paris in kelvin, and in Atlantis?", genai.RoleUser)}
	for turn := 1; turn <= maxTurns; turn++ {
		resp, err := client.Models.GenerateContent(ctx, model, contents, config)
		if err != nil {
			return err
		}
		calls, err := geminisdk.Calls(resp.FunctionCalls())
		if err != nil {
			return err
		}
		if len(calls) == 0 {
			fmt.Fprintf(out, "\n== answer\n%s\n", resp.Text())
			return nil
		}
		outs := toolgemini.Dispatch(ctx, reg, calls)
		for _, o := range outs {
			fmt.Fprintf(out, "\n== %s %s %s\n%s\n", o.Call.ID, o.Call.Name, o.Call.Args, o.Result.Text)
		}
		// The model's content goes back verbatim: it may carry thought signatures.
		contents = append(contents, resp.Candidates[0].Content, genai.NewContentFromParts(geminisdk.Responses(outs), genai.RoleUser))
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}
