// Command agent-anthropic is an agent loop on the Anthropic Messages API with toolgen's
// get_weather tool: it declares the tool, lets the model call it (in parallel, possibly with
// mistakes), dispatches the tool_use blocks through the registry and answers with tool_result
// blocks until the model answers.
//
// With ANTHROPIC_API_KEY set it talks to the real API (model ANTHROPIC_MODEL, default
// claude-sonnet-4-5); otherwise to a local fake model that makes a valid call, an invalid
// call and a failing call, and then checks the results it receives. Either way it stops
// after at most maxTurns model turns.
package main

import (
	"context"
	"fmt"
	"io"
	"net/http/httptest"
	"os"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/anthropic/anthropicsdk"
)

// maxTurns bounds the loop, so a model that keeps calling tools cannot run it forever.
const maxTurns = 5

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "agent-anthropic:", err)
		os.Exit(1)
	}
}

func run(ctx context.Context, out io.Writer) error {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		return err
	}
	tools, err := anthropicsdk.Tools(reg.Tools())
	if err != nil {
		return err
	}

	model := os.Getenv("ANTHROPIC_MODEL")
	if model == "" {
		model = "claude-sonnet-4-5"
	}
	var client anthropic.Client
	if os.Getenv("ANTHROPIC_API_KEY") != "" {
		client = anthropic.NewClient() // reads ANTHROPIC_API_KEY
		fmt.Fprintln(out, "== using the Anthropic API, model", model)
	} else {
		fake := httptest.NewServer(&fakeModel{})
		defer fake.Close()
		client = anthropic.NewClient(option.WithBaseURL(fake.URL), option.WithAPIKey("fake"), option.WithMaxRetries(0))
		fmt.Fprintln(out, "== ANTHROPIC_API_KEY is not set: using a local fake model")
	}

	params := anthropic.MessageNewParams{
		Model:     anthropic.Model(model),
		MaxTokens: 1024,
		Tools:     tools,
		Messages: []anthropic.MessageParam{anthropic.NewUserMessage(
			anthropic.NewTextBlock("What is the weather in Tokyo, in Paris in kelvin, and in Atlantis?"))},
	}
	for turn := 1; turn <= maxTurns; turn++ {
		msg, err := client.Messages.New(ctx, params)
		if err != nil {
			return err
		}
		calls := anthropicsdk.Calls(*msg)
		if len(calls) == 0 {
			fmt.Fprintln(out, "\n== answer")
			for _, b := range msg.Content {
				if b.Type == "text" {
					fmt.Fprintln(out, b.Text)
				}
			}
			return nil
		}
		outs := toolanthropic.Dispatch(ctx, reg, calls)
		for _, o := range outs {
			fmt.Fprintf(out, "\n== %s %s %s\n%s\n", o.Call.ID, o.Call.Name, o.Call.Args, o.Result.Text)
		}
		params.Messages = append(params.Messages, msg.ToParam(), anthropic.NewUserMessage(anthropicsdk.ToolResults(outs)...))
	}
	return fmt.Errorf("no answer after %d turns", maxTurns)
}
