package anthropic

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// contentBlock is the part of a message's content block that carries a tool_use.
type contentBlock struct {
	Type  string          `json:"type"`
	ID    string          `json:"id"`
	Name  string          `json:"name"`
	Input json.RawMessage `json:"input"`
}

// ParseCalls returns the tool_use blocks of a message given as wire JSON, in order. The input
// is kept as the model wrote it; Dispatch validates it. Each call's Run holds the message's
// model and usage (input tokens, cache writes and reads included, and output tokens), one
// RunInfo shared by the calls; join the host's run to it with RunInfo.With.
func ParseCalls(message []byte) ([]runtime.Call, error) {
	var msg struct {
		Content []contentBlock `json:"content"`
		Model   string         `json:"model"`
		Usage   usage          `json:"usage"`
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
	return withRun(calls, runtime.RunInfo{Model: msg.Model, InputTokens: msg.Usage.input(), OutputTokens: msg.Usage.OutputTokens}), nil
}
