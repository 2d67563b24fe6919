package openai

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// chatToolCall is one entry of an assistant message's tool_calls on the wire.
type chatToolCall struct {
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// ParseChatCalls returns the function calls of an assistant message given as wire JSON
// (choices[i].message of a chat.completion), in order. The arguments stay the raw string the
// model wrote; Dispatch validates them. Custom-tool calls are skipped: toolgen declares
// function tools only.
func ParseChatCalls(message []byte) ([]runtime.Call, error) {
	var msg struct {
		ToolCalls []chatToolCall `json:"tool_calls"`
	}
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

// ResponsesItem is the part of a Responses output item that carries a function call.
type ResponsesItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// ResponsesCalls returns the function calls among a response's output items, in order. Each
// Call.ID is the item's call_id, which its function_call_output must carry.
func ResponsesCalls(output []ResponsesItem) []runtime.Call {
	var calls []runtime.Call
	for _, item := range output {
		if item.Type == "function_call" {
			calls = append(calls, runtime.Call{ID: item.CallID, Name: item.Name, Args: []byte(item.Arguments)})
		}
	}
	return calls
}

// ParseResponsesCalls returns the function calls of a response given as wire JSON: either the
// whole response object or its "output" array, as ResponsesCalls does. From a whole response,
// each call's Run holds the response's model and usage (input_tokens, output_tokens), one
// RunInfo shared by the calls; join the host's run to it with RunInfo.With.
func ParseResponsesCalls(data []byte) ([]runtime.Call, error) {
	var output []ResponsesItem
	if err := json.Unmarshal(data, &output); err != nil {
		var resp struct {
			Output []ResponsesItem `json:"output"`
			Model  string          `json:"model"`
			Usage  struct {
				InputTokens  int64 `json:"input_tokens"`
				OutputTokens int64 `json:"output_tokens"`
			} `json:"usage"`
		}
		if err2 := json.Unmarshal(data, &resp); err2 != nil {
			return nil, fmt.Errorf("openai: parsing response output: %w", err2)
		}
		calls := ResponsesCalls(resp.Output)
		withRun(calls, runtime.RunInfo{Model: resp.Model, InputTokens: resp.Usage.InputTokens, OutputTokens: resp.Usage.OutputTokens})
		return calls, nil
	}
	return ResponsesCalls(output), nil
}

// withRun gives the calls of one response its model and usage, when it names any.
func withRun(calls []runtime.Call, run runtime.RunInfo) {
	if run == (runtime.RunInfo{}) {
		return
	}
	for i := range calls {
		calls[i].Run = &run
	}
}
