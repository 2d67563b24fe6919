package tooltest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

// An agent loop per API, on toolgen's wire adapters (runtime/openai, anthropic, gemini): ask,
// run the calls the model makes through the registry, send the results, until the model
// answers text. Each returns the model's last text, or the error of a refused request.
type agent func(ctx context.Context, url string, reg *runtime.Registry, stream bool) (string, error)

// post sends body as JSON and returns the answer's body; an answer that is not 200 is an
// error carrying it.
func post(ctx context.Context, url string, body any) ([]byte, string, error) {
	data, err := json.Marshal(body)
	if err != nil {
		return nil, "", err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, url, bytes.NewReader(data))
	if err != nil {
		return nil, "", err
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return nil, "", err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err == nil && resp.StatusCode != http.StatusOK {
		err = fmt.Errorf("%s: %s", resp.Status, out)
	}
	return out, resp.Header.Get("Content-Type"), err
}

// dataLines returns the data payloads of a server-sent event stream.
func dataLines(stream []byte) [][]byte {
	var out [][]byte
	sc := bufio.NewScanner(bytes.NewReader(stream))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		if rest, ok := strings.CutPrefix(sc.Text(), "data: "); ok && rest != "[DONE]" {
			out = append(out, []byte(rest))
		}
	}
	return out
}

func chatAgent(ctx context.Context, url string, reg *runtime.Registry, stream bool) (string, error) {
	tools, err := openai.ChatToolsJSON(reg.Tools())
	if err != nil {
		return "", err
	}
	messages := []any{map[string]any{"role": "user", "content": "Weather in Tokyo?"}}
	for {
		body, _, err := post(ctx, url+"/chat/completions", map[string]any{"model": "gpt-5", "messages": messages, "tools": json.RawMessage(tools), "stream": stream})
		if err != nil {
			return "", err
		}
		var calls []runtime.Call
		var text string
		var message json.RawMessage
		if stream {
			var s openai.ChatStream
			for _, chunk := range dataLines(body) {
				if err := s.AddJSON(chunk); err != nil {
					return "", err
				}
				var c struct {
					Choices []struct {
						Delta struct{ Content string }
					}
				}
				_ = json.Unmarshal(chunk, &c)
				for _, ch := range c.Choices {
					text += ch.Delta.Content
				}
			}
			calls = s.Calls()
			var tcs []any
			for _, c := range calls {
				tcs = append(tcs, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": string(c.Args)}})
			}
			message, _ = json.Marshal(map[string]any{"role": "assistant", "tool_calls": tcs})
		} else {
			var resp struct {
				Choices []struct{ Message json.RawMessage }
			}
			if err := json.Unmarshal(body, &resp); err != nil {
				return "", err
			}
			message = resp.Choices[0].Message
			var m struct{ Content *string }
			_ = json.Unmarshal(message, &m)
			if m.Content != nil {
				text = *m.Content
			}
			if calls, err = openai.ParseChatCalls(message); err != nil {
				return "", err
			}
		}
		if len(calls) == 0 {
			return text, nil
		}
		out, err := openai.ChatToolMessagesJSON(openai.Dispatch(ctx, reg, calls))
		if err != nil {
			return "", err
		}
		var results []any
		_ = json.Unmarshal(out, &results)
		messages = append(append(messages, message), results...)
	}
}

func responsesAgent(ctx context.Context, url string, reg *runtime.Registry, stream bool) (string, error) {
	tools, err := openai.ResponsesToolsJSON(reg.Tools())
	if err != nil {
		return "", err
	}
	input := []any{map[string]any{"role": "user", "content": "Weather in Tokyo?"}}
	for {
		body, _, err := post(ctx, url+"/responses", map[string]any{"model": "gpt-5", "input": input, "tools": json.RawMessage(tools), "stream": stream})
		if err != nil {
			return "", err
		}
		if stream {
			var s openai.ResponsesStream
			var completed []byte
			for _, event := range dataLines(body) {
				if _, _, err := s.AddJSON(event); err != nil {
					return "", err
				}
				var e struct {
					Type     string
					Response json.RawMessage
				}
				_ = json.Unmarshal(event, &e)
				if e.Type == "response.completed" {
					completed = e.Response
				}
			}
			if completed == nil {
				return "", fmt.Errorf("no response.completed in %s", body)
			}
			if len(s.Calls()) != strings.Count(string(completed), `"function_call"`) {
				return "", fmt.Errorf("the stream's calls %v differ from the completed response %s", s.Calls(), completed)
			}
			body = completed
		}
		var resp struct {
			Output []json.RawMessage
		}
		if err := json.Unmarshal(body, &resp); err != nil {
			return "", err
		}
		calls, err := openai.ParseResponsesCalls(body)
		if err != nil {
			return "", err
		}
		if len(calls) == 0 {
			var msg struct {
				Content []struct{ Text string }
			}
			_ = json.Unmarshal(resp.Output[0], &msg)
			return msg.Content[0].Text, nil
		}
		out, err := openai.ResponsesOutputsJSON(openai.Dispatch(ctx, reg, calls))
		if err != nil {
			return "", err
		}
		var results []any
		_ = json.Unmarshal(out, &results)
		for _, item := range resp.Output {
			input = append(input, item)
		}
		input = append(input, results...)
	}
}

func anthropicAgent(ctx context.Context, url string, reg *runtime.Registry, stream bool) (string, error) {
	tools, err := anthropic.ToolsJSON(reg.Tools())
	if err != nil {
		return "", err
	}
	messages := []any{map[string]any{"role": "user", "content": "Weather in Tokyo?"}}
	for {
		body, _, err := post(ctx, url+"/v1/messages", map[string]any{"model": "claude-opus-4-8", "max_tokens": 1024, "messages": messages, "tools": json.RawMessage(tools), "stream": stream})
		if err != nil {
			return "", err
		}
		var calls []runtime.Call
		var text string
		var content []any
		if stream {
			var s anthropic.Stream
			for _, event := range dataLines(body) {
				if _, _, err := s.AddJSON(event); err != nil {
					return "", err
				}
				var e struct {
					Type  string
					Delta struct{ Text string }
				}
				_ = json.Unmarshal(event, &e)
				text += e.Delta.Text
			}
			calls = s.Calls()
			for _, c := range calls {
				content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": json.RawMessage(c.Args)})
			}
		} else {
			var msg struct {
				Content []json.RawMessage
			}
			if err := json.Unmarshal(body, &msg); err != nil {
				return "", err
			}
			for _, b := range msg.Content {
				content = append(content, b)
				var block struct{ Type, Text string }
				_ = json.Unmarshal(b, &block)
				text += block.Text
			}
			if calls, err = anthropic.ParseCalls(body); err != nil {
				return "", err
			}
		}
		if len(calls) == 0 {
			return text, nil
		}
		out, err := anthropic.ToolResultsJSON(anthropic.Dispatch(ctx, reg, calls))
		if err != nil {
			return "", err
		}
		messages = append(messages, map[string]any{"role": "assistant", "content": content}, map[string]any{"role": "user", "content": json.RawMessage(out)})
	}
}

func geminiAgent(ctx context.Context, url string, reg *runtime.Registry, stream bool) (string, error) {
	tools, err := gemini.ToolsJSON(reg.Tools())
	if err != nil {
		return "", err
	}
	endpoint := url + "/v1beta/models/gemini-3-pro:generateContent"
	if stream {
		endpoint = url + "/v1beta/models/gemini-3-pro:streamGenerateContent?alt=sse"
	}
	contents := []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Weather in Tokyo?"}}}}
	for {
		body, _, err := post(ctx, endpoint, map[string]any{"contents": contents, "tools": json.RawMessage(tools)})
		if err != nil {
			return "", err
		}
		if stream {
			chunks := dataLines(body)
			if len(chunks) != 1 {
				return "", fmt.Errorf("want one chunk, got %s", body)
			}
			body = chunks[0]
		}
		var resp struct {
			Candidates []struct {
				Content struct {
					Parts []struct{ Text string }
				}
			}
		}
		if err := json.Unmarshal(body, &resp); err != nil {
			return "", err
		}
		calls, err := gemini.ParseCalls(body)
		if err != nil {
			return "", err
		}
		if len(calls) == 0 {
			return resp.Candidates[0].Content.Parts[0].Text, nil
		}
		out, err := gemini.ResponsesJSON(gemini.Dispatch(ctx, reg, calls))
		if err != nil {
			return "", err
		}
		var model struct {
			Candidates []struct{ Content json.RawMessage }
		}
		_ = json.Unmarshal(body, &model)
		contents = append(contents, model.Candidates[0].Content, map[string]any{"role": "user", "parts": json.RawMessage(out)})
	}
}

// apis are the scripted models with an agent speaking each one's API.
var apis = []struct {
	name  string
	model func(t testing.TB, turns ...tooltest.Turn) *tooltest.Model
	agent agent
}{
	{"Chat Completions", tooltest.ChatCompletionsModel, chatAgent},
	{"Responses", tooltest.ResponsesModel, responsesAgent},
	{"Anthropic", tooltest.AnthropicModel, anthropicAgent},
	{"Gemini", tooltest.GeminiModel, geminiAgent},
}

// eachAPI runs run for every API, unstreamed and streamed.
func eachAPI(t *testing.T, run func(t *testing.T, model func(testing.TB, ...tooltest.Turn) *tooltest.Model, agent agent, stream bool)) {
	for _, api := range apis {
		for _, stream := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s stream=%t", api.name, stream), func(t *testing.T) { run(t, api.model, api.agent, stream) })
		}
	}
}

func TestScriptedModelsRunAnAgent(t *testing.T) {
	eachAPI(t, func(t *testing.T, newModel func(testing.TB, ...tooltest.Turn) *tooltest.Model, agent agent, stream bool) {
		reg := weatherRegistry(t)
		var final string
		var reqs []tooltest.Request
		failures := record(t, t.Name(), func(rt testing.TB) {
			model := newModel(rt,
				tooltest.CallTools(
					tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`},
					tooltest.ToolCall{ID: "bad", Name: "get_weather", Args: `{"city":"Tokyo","unit":"kelvin"}`},
				).Expect(func(t testing.TB, req tooltest.Request) {
					assert.Equal(t, []string{"get_weather"}, req.Tools, "the tools declared")
					assert.Empty(t, req.ToolResults)
				}),
				tooltest.Reply("17 degrees in Tokyo."),
			)
			var err error
			final, err = agent(context.Background(), model.URL(), reg, stream)
			require.NoError(t, err)
			reqs = model.Requests()
		})
		require.Empty(t, failures)
		assert.Equal(t, "17 degrees in Tokyo.", final)
		require.Len(t, reqs, 2)
		assert.Equal(t, stream, reqs[0].Stream)
		assert.NotEmpty(t, reqs[0].Model)
		results := reqs[1].ToolResults
		require.Len(t, results, 2, "both calls answered")
		if results[0].CallID != "" { // Gemini: the first call had no id, so its answer has none
			assert.Contains(t, []string{"call_1", "toolu_1"}, results[0].CallID, "a call without an id is numbered")
		}
		assert.Contains(t, results[0].Content, `"temperature":17`)
		assert.Equal(t, "bad", results[1].CallID)
		assert.Contains(t, results[1].Content, `/unit: must be one of`)
		bad, ok := reqs[1].Result("bad")
		assert.True(t, ok)
		assert.Equal(t, results[1].Content, bad)
	})
}

func TestScriptedModelsFailTheTest(t *testing.T) {
	eachAPI(t, func(t *testing.T, newModel func(testing.TB, ...tooltest.Turn) *tooltest.Model, agent agent, stream bool) {
		reg := weatherRegistry(t)
		run := func(turns ...tooltest.Turn) (failures []string, err error) {
			failures = record(t, t.Name(), func(rt testing.TB) {
				model := newModel(rt, turns...)
				_, err = agent(context.Background(), model.URL(), reg, stream)
			})
			return failures, err
		}

		// A turn left unused, reported when the test ends.
		failures, err := run(tooltest.Reply("Done."), tooltest.Reply("never asked"))
		require.NoError(t, err)
		require.Len(t, failures, 1)
		assert.Contains(t, failures[0], `turn 2 of the`)
		assert.Contains(t, failures[0], `(text "never asked") was never requested: the agent stopped after 1 requests`)

		// A request past the script: the agent gets a 400 in the API's error shape.
		failures, err = run(tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`}))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "400")
		assert.Contains(t, err.Error(), "past its script of 1 turns")
		require.Len(t, failures, 1)
		assert.Contains(t, failures[0], "got request 2, past its script of 1 turns")

		// A failed check fails the test, and the request.
		failures, err = run(tooltest.Reply("Done.").Expect(func(t testing.TB, req tooltest.Request) {
			require.Equal(t, []string{"other_tool"}, req.Tools)
			t.Errorf("not stopped")
		}))
		require.Error(t, err)
		assert.Contains(t, err.Error(), "failed its turn's check")
		require.Len(t, failures, 1, "require stops the check: %q", failures)
		assert.Contains(t, failures[0], "other_tool")
	})
}

// An agent that drops a call's result is refused, as the provider refuses it.
func TestScriptedModelRefusesUnansweredCalls(t *testing.T) {
	for _, api := range apis {
		t.Run(api.name, func(t *testing.T) {
			var err error
			failures := record(t, t.Name(), func(rt testing.TB) {
				model := api.model(rt, tooltest.CallTools(tooltest.ToolCall{ID: "c1", Name: "get_weather", Args: `{"city":"Tokyo"}`}), tooltest.Reply("Done."))
				_, _, err = post(context.Background(), model.URL()+endpoint(api.name), requestWithoutResults(api.name))
				require.NoError(t, err)
				_, _, err = post(context.Background(), model.URL()+endpoint(api.name), requestWithoutResults(api.name))
			})
			require.Error(t, err)
			require.Len(t, failures, 1)
			assert.Contains(t, failures[0], "does not answer the calls c1 (get_weather) of the turn before it")
		})
	}
}

func endpoint(api string) string {
	switch api {
	case "Chat Completions":
		return "/chat/completions"
	case "Responses":
		return "/responses"
	case "Anthropic":
		return "/v1/messages"
	}
	return "/v1beta/models/gemini-3-pro:generateContent"
}

func requestWithoutResults(api string) map[string]any {
	switch api {
	case "Chat Completions", "Anthropic":
		return map[string]any{"model": "m", "messages": []any{map[string]any{"role": "user", "content": "Weather?"}}}
	case "Responses":
		return map[string]any{"model": "m", "input": "Weather?"}
	}
	return map[string]any{"contents": []any{map[string]any{"role": "user", "parts": []any{map[string]any{"text": "Weather?"}}}}}
}

func TestScriptedModelRefusesOtherAPIsAndBadScripts(t *testing.T) {
	var err error
	failures := record(t, t.Name(), func(rt testing.TB) {
		model := tooltest.AnthropicModel(rt, tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `"Tokyo"`}))
		_, _, err = post(context.Background(), model.URL()+"/chat/completions", map[string]any{})
	})
	require.Error(t, err)
	require.Len(t, failures, 3, "%q", failures)
	assert.Contains(t, failures[0], `calls get_weather with "Tokyo": this API sends arguments as a JSON object`)
	assert.Contains(t, failures[1], "got POST /chat/completions, which is not its API")
	assert.Contains(t, failures[2], "turn 1 of the Anthropic Messages model")
}
