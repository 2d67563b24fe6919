package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go"

	"github.com/toolgen-go/toolgen/runtime"
)

// Calls returns the tool_use blocks of a message as calls, in order. The input is already a
// JSON object; Dispatch validates it.
func Calls(msg anthropic.Message) []runtime.Call {
	var calls []runtime.Call
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			calls = append(calls, runtime.Call{ID: b.ID, Name: b.Name, Args: []byte(b.Input)})
		}
	}
	return calls
}

// ParseCalls returns the tool_use blocks of a message given as wire JSON, in order.
func ParseCalls(message []byte) ([]runtime.Call, error) {
	var msg struct {
		Content []struct {
			Type  string          `json:"type"`
			ID    string          `json:"id"`
			Name  string          `json:"name"`
			Input json.RawMessage `json:"input"`
		} `json:"content"`
	}
	if err := json.Unmarshal(message, &msg); err != nil {
		return nil, fmt.Errorf("anthropic: parsing a message: %w", err)
	}
	var calls []runtime.Call
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			calls = append(calls, runtime.Call{ID: b.ID, Name: b.Name, Args: []byte(b.Input)})
		}
	}
	return calls, nil
}
