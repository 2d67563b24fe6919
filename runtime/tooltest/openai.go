package tooltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// ChatCompletionsModel starts a scripted model speaking OpenAI's Chat Completions API
// (POST {URL}/chat/completions, streamed when the request says "stream": true), for an agent
// whose OpenAI client, or OpenAI-compatible model of a framework, has Model.URL as its base
// URL. It answers the requests with turns, in order; see Model for what fails the test.
//
//	model := tooltest.ChatCompletionsModel(t,
//		tooltest.CallTools(tooltest.ToolCall{Name: "get_weather", Args: `{"city":"Tokyo"}`}),
//		tooltest.Reply("17 degrees in Tokyo."),
//	)
//	client := openai.NewClient(option.WithBaseURL(model.URL()), option.WithAPIKey("test"))
func ChatCompletionsModel(t testing.TB, turns ...Turn) *Model {
	return newModel(t, chatCompletions{}, turns)
}

// ResponsesModel starts a scripted model speaking OpenAI's Responses API (POST
// {URL}/responses, streamed when the request says "stream": true). See ChatCompletionsModel.
func ResponsesModel(t testing.TB, turns ...Turn) *Model {
	return newModel(t, responses{}, turns)
}

// chatCompletions is OpenAI's Chat Completions API.
type chatCompletions struct{}

func (chatCompletions) name() string             { return "Chat Completions" }
func (chatCompletions) accepts(path string) bool { return strings.HasSuffix(path, "/chat/completions") }
func (chatCompletions) defaultID(n int) string   { return fmt.Sprintf("call_%d", n) }
func (chatCompletions) writeError(w http.ResponseWriter, status int, message string) {
	writeOpenAIError(w, status, message)
}

func writeOpenAIError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"message": message, "type": "invalid_request_error", "param": nil, "code": nil}})
}

func (chatCompletions) parse(path string, body []byte) (Request, error) {
	var doc struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role       string          `json:"role"`
			Content    json.RawMessage `json:"content"`
			ToolCallID string          `json:"tool_call_id"`
		} `json:"messages"`
		Tools []struct {
			Function struct {
				Name string `json:"name"`
			} `json:"function"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Request{}, err
	}
	req := Request{Path: path, Body: body, Model: doc.Model, Stream: doc.Stream}
	for _, tool := range doc.Tools {
		req.Tools = append(req.Tools, tool.Function.Name)
	}
	for _, msg := range doc.Messages {
		if msg.Role == "tool" {
			req.ToolResults = append(req.ToolResults, ToolResult{CallID: msg.ToolCallID, Content: textOf(msg.Content)})
		}
	}
	return req, nil
}

// textOf returns a content that is a string, or an array of parts whose text parts it joins.
func textOf(content json.RawMessage) string {
	var s string
	if json.Unmarshal(content, &s) == nil {
		return s
	}
	var parts []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	}
	_ = json.Unmarshal(content, &parts)
	var texts []string
	for _, p := range parts {
		if p.Text != "" || p.Type == "text" || p.Type == "input_text" || p.Type == "output_text" {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n")
}

func (chatCompletions) answer(w http.ResponseWriter, req Request, turn Turn, n int) {
	id := fmt.Sprintf("chatcmpl-tooltest-%d", n)
	finish := "stop"
	if len(turn.Calls) > 0 {
		finish = "tool_calls"
	}
	var calls []any
	for _, c := range turn.Calls {
		calls = append(calls, map[string]any{"id": c.ID, "type": "function", "function": map[string]any{"name": c.Name, "arguments": c.Args}})
	}
	usage := map[string]int{"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2}
	if !req.Stream {
		msg := map[string]any{"role": "assistant", "content": nullable(turn.Text), "refusal": nil}
		if len(calls) > 0 {
			msg["tool_calls"] = calls
		}
		writeJSON(w, http.StatusOK, map[string]any{"id": id, "object": "chat.completion", "created": n, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "logprobs": nil, "message": msg}}, "usage": usage})
		return
	}
	chunk := func(delta map[string]any, finish any) map[string]any {
		return map[string]any{"id": id, "object": "chat.completion.chunk", "created": n, "model": req.Model,
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish, "logprobs": nil}}}
	}
	events := []any{chunk(map[string]any{"role": "assistant", "content": ""}, nil)}
	if turn.Text != "" {
		events = append(events, chunk(map[string]any{"content": turn.Text}, nil))
	}
	for i, c := range turn.Calls {
		events = append(events, chunk(map[string]any{"tool_calls": []any{map[string]any{"index": i, "id": c.ID, "type": "function",
			"function": map[string]any{"name": c.Name, "arguments": c.Args}}}}, nil))
	}
	events = append(events, chunk(map[string]any{}, finish))
	var include struct {
		StreamOptions struct {
			IncludeUsage bool `json:"include_usage"`
		} `json:"stream_options"`
	}
	if json.Unmarshal(req.Body, &include) == nil && include.StreamOptions.IncludeUsage {
		events = append(events, map[string]any{"id": id, "object": "chat.completion.chunk", "created": n, "model": req.Model, "choices": []any{}, "usage": usage})
	}
	writeSSE(w, "", events...)
	_, _ = fmt.Fprint(w, "data: [DONE]\n\n")
}

// nullable is text, or JSON null when it is empty.
func nullable(text string) any {
	if text == "" {
		return nil
	}
	return text
}

// responses is OpenAI's Responses API.
type responses struct{}

func (responses) name() string             { return "Responses" }
func (responses) accepts(path string) bool { return strings.HasSuffix(path, "/responses") }
func (responses) defaultID(n int) string   { return fmt.Sprintf("call_%d", n) }
func (responses) writeError(w http.ResponseWriter, status int, message string) {
	writeOpenAIError(w, status, message)
}

func (responses) parse(path string, body []byte) (Request, error) {
	var doc struct {
		Model  string          `json:"model"`
		Stream bool            `json:"stream"`
		Input  json.RawMessage `json:"input"`
		Tools  []struct {
			Type string `json:"type"`
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Request{}, err
	}
	req := Request{Path: path, Body: body, Model: doc.Model, Stream: doc.Stream}
	for _, tool := range doc.Tools {
		if tool.Name != "" {
			req.Tools = append(req.Tools, tool.Name)
		}
	}
	var items []struct {
		Type   string          `json:"type"`
		CallID string          `json:"call_id"`
		Output json.RawMessage `json:"output"`
	}
	if len(doc.Input) > 0 && doc.Input[0] == '[' {
		if err := json.Unmarshal(doc.Input, &items); err != nil {
			return Request{}, fmt.Errorf("input: %w", err)
		}
	}
	for _, item := range items {
		if item.Type == "function_call_output" {
			req.ToolResults = append(req.ToolResults, ToolResult{CallID: item.CallID, Content: textOf(item.Output)})
		}
	}
	return req, nil
}

func (responses) answer(w http.ResponseWriter, req Request, turn Turn, n int) {
	id := fmt.Sprintf("resp_tooltest_%d", n)
	var output []map[string]any
	if turn.Text != "" {
		output = append(output, map[string]any{"type": "message", "id": fmt.Sprintf("msg_%d", n), "role": "assistant", "status": "completed",
			"content": []any{map[string]any{"type": "output_text", "text": turn.Text, "annotations": []any{}}}})
	}
	for i, c := range turn.Calls {
		output = append(output, map[string]any{"type": "function_call", "id": fmt.Sprintf("fc_%d_%d", n, i+1), "call_id": c.ID,
			"name": c.Name, "arguments": c.Args, "status": "completed"})
	}
	response := func(status string, output []map[string]any) map[string]any {
		if output == nil {
			output = []map[string]any{}
		}
		return map[string]any{"id": id, "object": "response", "created_at": n, "model": req.Model, "status": status, "output": output,
			"usage": map[string]int{"input_tokens": 1, "output_tokens": 1, "total_tokens": 2}}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, response("completed", output))
		return
	}
	seq := 0
	event := func(typ string, fields map[string]any) map[string]any {
		fields["type"], fields["sequence_number"] = typ, seq
		seq++
		return fields
	}
	events := []any{event("response.created", map[string]any{"response": response("in_progress", nil)})}
	for i, item := range output {
		added := map[string]any{}
		for k, v := range item {
			added[k] = v
		}
		added["status"] = "in_progress"
		switch item["type"] {
		case "message":
			added["content"] = []any{}
			events = append(events,
				event("response.output_item.added", map[string]any{"output_index": i, "item": added}),
				event("response.output_text.delta", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "delta": turn.Text}),
				event("response.output_text.done", map[string]any{"item_id": item["id"], "output_index": i, "content_index": 0, "text": turn.Text}))
		case "function_call":
			added["arguments"] = ""
			events = append(events,
				event("response.output_item.added", map[string]any{"output_index": i, "item": added}),
				event("response.function_call_arguments.delta", map[string]any{"item_id": item["id"], "output_index": i, "delta": item["arguments"]}),
				event("response.function_call_arguments.done", map[string]any{"item_id": item["id"], "output_index": i, "name": item["name"], "arguments": item["arguments"]}))
		}
		events = append(events, event("response.output_item.done", map[string]any{"output_index": i, "item": item}))
	}
	events = append(events, event("response.completed", map[string]any{"response": response("completed", output)}))
	writeSSE(w, "type", events...)
}

// writeJSON answers with v as JSON.
func writeJSON(w http.ResponseWriter, status int, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_, _ = w.Write(data)
}

// writeSSE answers with events as a server-sent event stream: each event's JSON on a data
// line, after an event line naming its eventField when eventField is not "".
func writeSSE(w http.ResponseWriter, eventField string, events ...any) {
	w.Header().Set("Content-Type", "text/event-stream")
	w.Header().Set("Cache-Control", "no-cache")
	w.WriteHeader(http.StatusOK)
	for _, e := range events {
		data, _ := json.Marshal(e) // maps of strings, numbers and JSON always encode
		if eventField != "" {
			if m, ok := e.(map[string]any); ok {
				_, _ = fmt.Fprintf(w, "event: %v\n", m[eventField])
			}
		}
		_, _ = fmt.Fprintf(w, "data: %s\n\n", data)
	}
}
