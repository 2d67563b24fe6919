package anthropic

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Stream assembles tool calls from the events of a streamed message. A tool_use block starts
// with its id and name (content_block_start), its input arrives as input_json_delta
// fragments, and the call is complete, and returned by Add, at its content_block_stop; so it
// can be dispatched while the model writes the next block. A call's Run holds the message's
// model and input tokens (from message_start) when it completes; the output tokens are final
// in the message_delta after the last block, so Calls, called after the stream ended, gives
// the calls with them. A Stream is not safe for concurrent use.
type Stream struct {
	blocks   map[int64]*streamBlock
	complete []runtime.Call
	run      runtime.RunInfo
}

type streamBlock struct {
	id, name string
	initial  string // the input given at the start, used when no fragment follows
	input    strings.Builder
}

// StreamEvent is the part of a stream event this assembler reads.
type StreamEvent struct {
	Type         string `json:"type"`
	Index        int64  `json:"index"`
	ContentBlock struct {
		Type  string          `json:"type"`
		ID    string          `json:"id"`
		Name  string          `json:"name"`
		Input json.RawMessage `json:"input"`
	} `json:"content_block"`
	Delta struct {
		Type        string `json:"type"`
		PartialJSON string `json:"partial_json"`
	} `json:"delta"`
	// Message is message_start's message: its model and usage so far.
	Message struct {
		Model string `json:"model"`
		Usage usage  `json:"usage"`
	} `json:"message"`
	// Usage is message_delta's usage, whose output_tokens count the whole message.
	Usage usage `json:"usage"`
}

// usage is a message's usage, as a message, message_start and message_delta carry it.
type usage struct {
	InputTokens              int64 `json:"input_tokens"`
	CacheCreationInputTokens int64 `json:"cache_creation_input_tokens"`
	CacheReadInputTokens     int64 `json:"cache_read_input_tokens"`
	OutputTokens             int64 `json:"output_tokens"`
}

// input is the prompt's tokens, cache writes and reads included.
func (u usage) input() int64 {
	return u.InputTokens + u.CacheCreationInputTokens + u.CacheReadInputTokens
}

// AddJSON takes one event as the JSON of a server-sent event's data and returns the call it
// completes, if any.
func (s *Stream) AddJSON(event []byte) (runtime.Call, bool, error) {
	var e StreamEvent
	if err := json.Unmarshal(event, &e); err != nil {
		return runtime.Call{}, false, fmt.Errorf("anthropic: parsing a stream event: %w", err)
	}
	call, ok := s.AddEvent(e)
	return call, ok, nil
}

// AddEvent takes one event read in another form (the SDK's, in anthropicsdk) and returns the
// call it completes, if any.
func (s *Stream) AddEvent(e StreamEvent) (runtime.Call, bool) {
	switch e.Type {
	case "message_start":
		s.run.Model = e.Message.Model
		s.run.InputTokens, s.run.OutputTokens = e.Message.Usage.input(), e.Message.Usage.OutputTokens
	case "message_delta":
		if in := e.Usage.input(); in != 0 {
			s.run.InputTokens = in
		}
		if e.Usage.OutputTokens != 0 {
			s.run.OutputTokens = e.Usage.OutputTokens
		}
	case "content_block_start":
		if e.ContentBlock.Type != "tool_use" {
			return runtime.Call{}, false
		}
		if s.blocks == nil {
			s.blocks = make(map[int64]*streamBlock)
		}
		s.blocks[e.Index] = &streamBlock{id: e.ContentBlock.ID, name: e.ContentBlock.Name, initial: string(e.ContentBlock.Input)}
	case "content_block_delta":
		if b := s.blocks[e.Index]; b != nil && e.Delta.Type == "input_json_delta" {
			b.input.WriteString(e.Delta.PartialJSON)
		}
	case "content_block_stop":
		b := s.blocks[e.Index]
		if b == nil {
			return runtime.Call{}, false
		}
		delete(s.blocks, e.Index)
		args := b.input.String()
		if args == "" {
			args = b.initial
		}
		call := runtime.Call{ID: b.id, Name: b.name, Args: []byte(args)}
		s.complete = append(s.complete, call)
		return withRun([]runtime.Call{call}, s.run)[0], true
	}
	return runtime.Call{}, false
}

// Calls returns every call completed so far, in completion order, each with the message's
// model and usage as known now.
func (s *Stream) Calls() []runtime.Call { return withRun(slices.Clone(s.complete), s.run) }

// withRun gives the calls of one message its model and usage, when it names any.
func withRun(calls []runtime.Call, run runtime.RunInfo) []runtime.Call {
	if run == (runtime.RunInfo{}) {
		return calls
	}
	for i := range calls {
		calls[i].Run = &run
	}
	return calls
}
