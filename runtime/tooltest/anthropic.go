package tooltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// AnthropicModel starts a scripted model speaking Anthropic's Messages API (POST
// {URL}/v1/messages, streamed when the request says "stream": true), for an agent whose
// Anthropic client has Model.URL as its base URL. Calls are tool_use blocks, numbered
// "toolu_1"… when the script gives no ids; their Args must be JSON objects, as the API
// sends them. See Model for what fails the test.
func AnthropicModel(t testing.TB, turns ...Turn) *Model {
	return newModel(t, anthropicMessages{}, turns)
}

// anthropicMessages is Anthropic's Messages API.
type anthropicMessages struct{}

func (anthropicMessages) name() string             { return "Anthropic Messages" }
func (anthropicMessages) accepts(path string) bool { return strings.HasSuffix(path, "/v1/messages") }
func (anthropicMessages) defaultID(n int) string   { return fmt.Sprintf("toolu_%d", n) }
func (anthropicMessages) objectArgs() bool         { return true }

func (anthropicMessages) writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"type": "error", "error": map[string]any{"type": "invalid_request_error", "message": message}})
}

func (anthropicMessages) parse(path string, body []byte) (Request, error) {
	var doc struct {
		Model    string `json:"model"`
		Stream   bool   `json:"stream"`
		Messages []struct {
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"messages"`
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Request{}, err
	}
	req := Request{Path: path, Body: body, Model: doc.Model, Stream: doc.Stream}
	for _, tool := range doc.Tools {
		req.Tools = append(req.Tools, tool.Name)
	}
	for _, msg := range doc.Messages {
		var blocks []struct {
			Type      string          `json:"type"`
			ToolUseID string          `json:"tool_use_id"`
			Content   json.RawMessage `json:"content"`
			IsError   bool            `json:"is_error"`
		}
		if len(msg.Content) == 0 || msg.Content[0] != '[' {
			continue // a string: text only
		}
		if err := json.Unmarshal(msg.Content, &blocks); err != nil {
			return Request{}, fmt.Errorf("a %s message's content: %w", msg.Role, err)
		}
		for _, b := range blocks {
			if b.Type == "tool_result" {
				req.ToolResults = append(req.ToolResults, ToolResult{CallID: b.ToolUseID, Content: textOf(b.Content), IsError: b.IsError})
			}
		}
	}
	return req, nil
}

func (anthropicMessages) answer(w http.ResponseWriter, req Request, turn Turn, n int) {
	id := fmt.Sprintf("msg_tooltest_%d", n)
	stop := "end_turn"
	if len(turn.Calls) > 0 {
		stop = "tool_use"
	}
	var content []any
	if turn.Text != "" {
		content = append(content, map[string]any{"type": "text", "text": turn.Text})
	}
	for _, c := range turn.Calls {
		content = append(content, map[string]any{"type": "tool_use", "id": c.ID, "name": c.Name, "input": json.RawMessage(c.Args)})
	}
	if content == nil {
		content = []any{}
	}
	usage := map[string]int{"input_tokens": 1, "output_tokens": 1}
	message := func(content []any, stop any) map[string]any {
		return map[string]any{"id": id, "type": "message", "role": "assistant", "model": req.Model, "content": content,
			"stop_reason": stop, "stop_sequence": nil, "usage": usage}
	}
	if !req.Stream {
		writeJSON(w, http.StatusOK, message(content, stop))
		return
	}
	events := []any{map[string]any{"type": "message_start", "message": message([]any{}, nil)}}
	for i, block := range content {
		b := block.(map[string]any)
		start := map[string]any{"type": b["type"]}
		var delta map[string]any
		switch b["type"] {
		case "text":
			start["text"] = ""
			delta = map[string]any{"type": "text_delta", "text": b["text"]}
		case "tool_use":
			start["id"], start["name"], start["input"] = b["id"], b["name"], map[string]any{}
			delta = map[string]any{"type": "input_json_delta", "partial_json": string(b["input"].(json.RawMessage))}
		}
		events = append(events,
			map[string]any{"type": "content_block_start", "index": i, "content_block": start},
			map[string]any{"type": "content_block_delta", "index": i, "delta": delta},
			map[string]any{"type": "content_block_stop", "index": i})
	}
	events = append(events,
		map[string]any{"type": "message_delta", "delta": map[string]any{"stop_reason": stop, "stop_sequence": nil}, "usage": map[string]int{"output_tokens": 1}},
		map[string]any{"type": "message_stop"})
	writeSSE(w, "type", events...)
}
