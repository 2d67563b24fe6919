// Command agent-openai is an agent loop on the OpenAI Chat Completions API with toolgen's
// get_weather tool: it declares the tool, lets the model call it (in parallel, possibly with
// mistakes), dispatches the calls through the registry and sends the results back until the
// model answers.
//
// With OPENAI_API_KEY set it talks to the real API (model OPENAI_MODEL, default gpt-5-mini);
// otherwise to a local fake model that makes a valid call, a strict-mode null, an invalid
// call and a failing call, and then checks the results it receives. Either way it stops
// after at most maxTurns model turns.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/openai/openaisdk"
)

// maxTurns bounds the loop, so a model that keeps calling tools cannot run it forever.
const maxTurns = 5

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agent-openai:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		return err
	}
	tools, err := openaisdk.ChatTools(reg.Tools())
	if err != nil {
		return err
	}

	model := os.Getenv("OPENAI_MODEL")
	if model == "" {
		model = "gpt-5-mini"
	}
	var client openai.Client
	if os.Getenv("OPENAI_API_KEY") != "" {
		client = openai.NewClient() // reads OPENAI_API_KEY
		fmt.Fprintln(out, "== using the OpenAI API, model", model)
	} else {
		fake := httptest.NewServer(&fakeModel{})
		defer fake.Close()
		client = openai.NewClient(option.WithBaseURL(fake.URL), option.WithAPIKey("fake"), option.WithMaxRetries(0))
		fmt.Fprintln(out, "== OPENAI_API_KEY is not set: using a local fake model")
	}

	params := openai.ChatCompletionNewParams{
		Model: model,
		Tools: tools,
		Messages: []openai.ChatCompletionMessageParamUnion{
			openai.UserMessage("What is the weather in Tokyo, in Paris in kelvin, and in Atlantis?"),
		},
	}
	for turn := 1; turn <= maxTurns; turn++ {
		resp, err := client.Chat.Completions.New(ctx, params)
		if err != nil {
			return err
		}
		if len(resp.Choices) == 0 {
			return fmt.Errorf("turn %d: the model returned no choice", turn)
		}
		msg := resp.Choices[0].Message
		calls := openaisdk.ChatCalls(msg)
		if len(calls) == 0 {
			fmt.Fprintf(out, "\n== answer\n%s\n", msg.Content)
			return nil
		}
		outs := toolopenai.Dispatch(ctx, reg, calls)
		for _, o := range outs {
			fmt.Fprintf(out, "\n== %s %s %s\n%s\n", o.Call.ID, o.Call.Name, o.Call.Args, o.Result.Text)
		}
		params.Messages = append(params.Messages, msg.ToParam())
		params.Messages = append(params.Messages, openaisdk.ChatToolMessages(outs)...)
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}
