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

// ParseChatCalls returns the function calls of an assistant message given as wire JSON
// (choices[i].message of a chat.completion), in order, as ChatCalls does.
func ParseChatCalls(message []byte) ([]runtime.Call, error) {
	// Only tool_calls is read, into the SDK's type. The SDK's own decoder would accept any
	// JSON for the message and for the array (as no calls); encoding/json refuses them.
	var msg struct {
		ToolCalls []openai.ChatCompletionMessageToolCallUnion `json:"tool_calls"`
	}
	if err := json.Unmarshal(message, &msg); err != nil {
		return nil, fmt.Errorf("openai: parsing a chat message: %w", err)
	}
	return ChatCalls(openai.ChatCompletionMessage{ToolCalls: msg.ToolCalls}), nil
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

// ParseResponsesCalls returns the function calls of a response given as wire JSON: either the
// whole response object or its "output" array. The calls are those of ResponsesCalls.
func ParseResponsesCalls(data []byte) ([]runtime.Call, error) {
	var output []responses.ResponseOutputItemUnion
	if err := json.Unmarshal(data, &output); err != nil {
		var resp struct {
			Output []responses.ResponseOutputItemUnion `json:"output"`
		}
		if err2 := json.Unmarshal(data, &resp); err2 != nil {
			return nil, fmt.Errorf("openai: parsing response output: %w", err2)
		}
		output = resp.Output
	}
	return ResponsesCalls(output), nil
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
