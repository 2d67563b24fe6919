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

// ParseChatCompletionCalls returns the function calls of a whole chat.completion given as wire
// JSON (its choices[0].message, as ParseChatCalls reads it), each with a Run holding the
// completion's model and usage (prompt_tokens, completion_tokens), one RunInfo shared by the
// calls; join the host's run to it with RunInfo.With.
func ParseChatCompletionCalls(completion []byte) ([]runtime.Call, error) {
	var c struct {
		Choices []struct {
			Index   int64           `json:"index"`
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
		Model string    `json:"model"`
		Usage chatUsage `json:"usage"`
	}
	if err := json.Unmarshal(completion, &c); err != nil {
		return nil, fmt.Errorf("openai: parsing a chat completion: %w", err)
	}
	for _, choice := range c.Choices {
		if choice.Index != 0 {
			continue
		}
		calls, err := ParseChatCalls(choice.Message)
		if err != nil {
			return nil, err
		}
		withRun(calls, c.Usage.run(c.Model))
		return calls, nil
	}
	return nil, nil
}

// chatUsage is a chat completion's (or its last chunk's) usage.
type chatUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
}

func (u chatUsage) run(model string) runtime.RunInfo {
	return runtime.RunInfo{Model: model, InputTokens: u.PromptTokens, OutputTokens: u.CompletionTokens}
}

// responsesUsage is a response's usage.
type responsesUsage struct {
	InputTokens  int64 `json:"input_tokens"`
	OutputTokens int64 `json:"output_tokens"`
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
			Usage  responsesUsage  `json:"usage"`
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
func withRun(calls []runtime.Call, run runtime.RunInfo) []runtime.Call {
	if run == (runtime.RunInfo{}) {
		return calls
	}
	for i := range calls {
		calls[i].Run = &run
	}
	return calls
}
