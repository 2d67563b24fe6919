package openai

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime"
)

// ChatCalls returns the function calls of an assistant message, in order. The arguments stay
// the raw string the model wrote; Dispatch validates them. Custom-tool calls are skipped:
// toolgen declares function tools only.
func ChatCalls(msg openai.ChatCompletionMessage) []runtime.Call {
	var calls []runtime.Call
	for _, tc := range msg.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		calls = append(calls, runtime.Call{ID: tc.ID, Name: tc.Function.Name, Args: []byte(tc.Function.Arguments)})
	}
	return calls
}

// chatMessage is the part of a Chat Completions assistant message that carries calls.
type chatMessage struct {
	ToolCalls []struct {
		ID       string `json:"id"`
		Type     string `json:"type"`
		Function struct {
			Name      string `json:"name"`
			Arguments string `json:"arguments"`
		} `json:"function"`
	} `json:"tool_calls"`
}

// ParseChatCalls returns the function calls of an assistant message given as wire JSON
// (choices[i].message of a chat.completion), in order.
func ParseChatCalls(message []byte) ([]runtime.Call, error) {
	var msg chatMessage
	if err := json.Unmarshal(message, &msg); err != nil {
		return nil, fmt.Errorf("openai: parsing a chat message: %w", err)
	}
	var calls []runtime.Call
	for _, tc := range msg.ToolCalls {
		if tc.Type != "" && tc.Type != "function" {
			continue
		}
		calls = append(calls, runtime.Call{ID: tc.ID, Name: tc.Function.Name, Args: []byte(tc.Function.Arguments)})
	}
	return calls, nil
}

// ResponsesCalls returns the function calls among a response's output items, in order. Each
// Call.ID is the item's call_id, which its function_call_output must carry.
func ResponsesCalls(output []responses.ResponseOutputItemUnion) []runtime.Call {
	var calls []runtime.Call
	for _, item := range output {
		if item.Type != "function_call" {
			continue
		}
		fc := item.AsFunctionCall()
		calls = append(calls, runtime.Call{ID: fc.CallID, Name: fc.Name, Args: []byte(fc.Arguments)})
	}
	return calls
}

// responseItem is the part of a Responses output item that carries a function call.
type responseItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ParseResponsesCalls returns the function calls of a response given as wire JSON: either the
// whole response object or its "output" array.
func ParseResponsesCalls(data []byte) ([]runtime.Call, error) {
	var items []responseItem
	if err := json.Unmarshal(data, &items); err != nil {
		var resp struct {
			Output []responseItem `json:"output"`
		}
		if err2 := json.Unmarshal(data, &resp); err2 != nil {
			return nil, fmt.Errorf("openai: parsing response output: %w", err2)
		}
		items = resp.Output
	}
	var calls []runtime.Call
	for _, item := range items {
		if item.Type == "function_call" {
			calls = append(calls, runtime.Call{ID: item.CallID, Name: item.Name, Args: []byte(item.Arguments)})
		}
	}
	return calls, nil
}

// ResponsesReplay returns a response's output items as input items, verbatim, for the next
// request: the API wants the function_call items (and, for reasoning models, the reasoning
// items) before their outputs when previous_response_id is not used. The SDK has no
// conversion of its own, so each item is sent as the JSON the API returned.
func ResponsesReplay(output []responses.ResponseOutputItemUnion) []responses.ResponseInputItemUnionParam {
	items := make([]responses.ResponseInputItemUnionParam, 0, len(output))
	for _, item := range output {
		items = append(items, param.Override[responses.ResponseInputItemUnionParam](json.RawMessage(item.RawJSON())))
	}
	return items
}
