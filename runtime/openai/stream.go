package openai

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

	"github.com/toolgen-go/toolgen/runtime"
)

// ChatStream assembles the tool calls of a streamed Chat Completion from its chunks. Feed it
// every chunk (Add or AddJSON); once a chunk of choice 0 carries a finish_reason, Done reports
// true and Calls returns the complete calls. Fragments are joined per tool-call index, as the
// API requires: the id and name come in the first fragment of an index, the arguments in
// pieces. Only choice 0 is read (requests with n > 1 are not supported). A ChatStream is not
// safe for concurrent use.
type ChatStream struct {
	calls   []*partialCall // in order of first appearance
	byIndex map[int64]*partialCall
	done    bool
}

type partialCall struct {
	id, name string
	args     strings.Builder
}

// chatDelta is one tool-call fragment of a chunk.
type chatDelta struct {
	Index    int64  `json:"index"`
	ID       string `json:"id"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
}

// Add takes one chunk from the SDK's stream (stream.Current()).
func (s *ChatStream) Add(chunk openai.ChatCompletionChunk) {
	for _, choice := range chunk.Choices {
		if choice.Index != 0 {
			continue
		}
		for _, tc := range choice.Delta.ToolCalls {
			var d chatDelta
			d.Index, d.ID, d.Function.Name, d.Function.Arguments = tc.Index, tc.ID, tc.Function.Name, tc.Function.Arguments
			s.add(d)
		}
		if choice.FinishReason != "" {
			s.done = true
		}
	}
}

// AddJSON takes one chunk as the JSON of a server-sent event's data. The terminating
// "[DONE]" is accepted and ignored.
func (s *ChatStream) AddJSON(chunk []byte) error {
	if strings.TrimSpace(string(chunk)) == "[DONE]" {
		return nil
	}
	var c struct {
		Choices []struct {
			Index int64 `json:"index"`
			Delta struct {
				ToolCalls []chatDelta `json:"tool_calls"`
			} `json:"delta"`
			FinishReason *string `json:"finish_reason"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(chunk, &c); err != nil {
		return fmt.Errorf("openai: parsing a chat completion chunk: %w", err)
	}
	for _, choice := range c.Choices {
		if choice.Index != 0 {
			continue
		}
		for _, d := range choice.Delta.ToolCalls {
			s.add(d)
		}
		if choice.FinishReason != nil && *choice.FinishReason != "" {
			s.done = true
		}
	}
	return nil
}

func (s *ChatStream) add(d chatDelta) {
	p, ok := s.byIndex[d.Index]
	if !ok {
		if s.byIndex == nil {
			s.byIndex = make(map[int64]*partialCall)
		}
		p = &partialCall{}
		s.byIndex[d.Index] = p
		s.calls = append(s.calls, p)
	}
	if d.ID != "" {
		p.id = d.ID
	}
	if d.Function.Name != "" {
		p.name = d.Function.Name
	}
	p.args.WriteString(d.Function.Arguments)
}

// Done reports whether the model finished its message, so that every call is complete.
func (s *ChatStream) Done() bool { return s.done }

// Calls returns the assembled calls in index order once Done, and nil before: a call is only
// dispatched when complete.
func (s *ChatStream) Calls() []runtime.Call {
	if !s.done {
		return nil
	}
	calls := make([]runtime.Call, len(s.calls))
	for i, p := range s.calls {
		calls[i] = runtime.Call{ID: p.id, Name: p.name, Args: []byte(p.args.String())}
	}
	return calls
}

// ResponsesStream assembles function calls from the events of a streamed Response. Each call
// is complete, and returned by Add, when its response.function_call_arguments.done (or, at
// the latest, its response.output_item.done) event arrives, so it can be dispatched while the
// model is still writing the next one. Fragments are joined per item id. A ResponsesStream is
// not safe for concurrent use.
type ResponsesStream struct {
	items    map[string]*streamItem
	complete []runtime.Call
}

type streamItem struct {
	callID, name string
	args         strings.Builder
	emitted      bool
}

// responseItem is the part of a Responses output item, in a stream event, that carries a
// function call.
type responseItem struct {
	Type      string `json:"type"`
	ID        string `json:"id"`
	CallID    string `json:"call_id"`
	Name      string `json:"name"`
	Arguments string `json:"arguments"`
}

// responsesEvent is the part of a stream event this assembler reads.
type responsesEvent struct {
	Type      string       `json:"type"`
	ItemID    string       `json:"item_id"`
	Delta     string       `json:"delta"`
	Arguments string       `json:"arguments"`
	Item      responseItem `json:"item"`
}

// Add takes one event from the SDK's stream (stream.Current()) and returns the call it
// completes, if any.
func (s *ResponsesStream) Add(ev responses.ResponseStreamEventUnion) (runtime.Call, bool) {
	e := responsesEvent{Type: ev.Type, ItemID: ev.ItemID, Delta: ev.Delta, Arguments: ev.Arguments}
	if ev.Item.Type == "function_call" {
		fc := ev.Item.AsFunctionCall()
		e.Item = responseItem{Type: string(fc.Type), ID: fc.ID, CallID: fc.CallID, Name: fc.Name, Arguments: fc.Arguments}
	}
	return s.add(e)
}

// AddJSON takes one event as the JSON of a server-sent event's data and returns the call it
// completes, if any.
func (s *ResponsesStream) AddJSON(event []byte) (runtime.Call, bool, error) {
	var e responsesEvent
	if err := json.Unmarshal(event, &e); err != nil {
		return runtime.Call{}, false, fmt.Errorf("openai: parsing a response stream event: %w", err)
	}
	call, ok := s.add(e)
	return call, ok, nil
}

func (s *ResponsesStream) add(e responsesEvent) (runtime.Call, bool) {
	switch e.Type {
	case "response.output_item.added":
		if e.Item.Type != "function_call" {
			return runtime.Call{}, false
		}
		if s.items == nil {
			s.items = make(map[string]*streamItem)
		}
		it := &streamItem{callID: e.Item.CallID, name: e.Item.Name}
		it.args.WriteString(e.Item.Arguments)
		s.items[e.Item.ID] = it
	case "response.function_call_arguments.delta":
		if it := s.items[e.ItemID]; it != nil && !it.emitted {
			it.args.WriteString(e.Delta)
		}
	case "response.function_call_arguments.done":
		return s.finish(e.ItemID, e.Arguments)
	case "response.output_item.done":
		if e.Item.Type == "function_call" {
			return s.finish(e.Item.ID, e.Item.Arguments)
		}
	}
	return runtime.Call{}, false
}

// finish completes an item once; the final arguments, when the event carries them, win over
// the joined fragments.
func (s *ResponsesStream) finish(itemID, final string) (runtime.Call, bool) {
	it := s.items[itemID]
	if it == nil || it.emitted {
		return runtime.Call{}, false
	}
	it.emitted = true
	args := it.args.String()
	if final != "" {
		args = final
	}
	call := runtime.Call{ID: it.callID, Name: it.name, Args: []byte(args)}
	s.complete = append(s.complete, call)
	return call, true
}

// Calls returns every call completed so far, in completion order.
func (s *ResponsesStream) Calls() []runtime.Call { return s.complete }
