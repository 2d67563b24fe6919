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

// ParseCalls returns the tool_use blocks of a message given as wire JSON, in order, as Calls
// does.
func ParseCalls(message []byte) ([]runtime.Call, error) {
	// Only content is read, into the SDK's type. The SDK's own decoder would accept any JSON
	// for the message and for the array (as no calls); encoding/json refuses them.
	var msg struct {
		Content []anthropic.ContentBlockUnion `json:"content"`
	}
	if err := json.Unmarshal(message, &msg); err != nil {
		return nil, fmt.Errorf("anthropic: parsing a message: %w", err)
	}
	return Calls(anthropic.Message{Content: msg.Content}), nil
}
