package openai

import (
	"cmp"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// ChatStream assembles the tool calls of a streamed Chat Completion from its chunks. Feed it
// every chunk (Add or AddJSON); once a chunk of choice 0 carries a finish_reason, Done reports
// true and Calls returns the complete calls. Fragments are joined per tool-call index, as the
// API requires: the id and name come in the first fragment of an index, the arguments in
// pieces. Only choice 0 is read (requests with n > 1 are not supported). The calls' Run holds
// the chunks' model and, when the request set stream_options.include_usage, the usage the
// last chunk carries, after the one with the finish_reason: call Calls after the last chunk
// to have it. A ChatStream is not safe for concurrent use.
type ChatStream struct {
	calls   []*partialCall // in order of first appearance
	byIndex map[int64]*partialCall
	done    bool
	run     runtime.RunInfo
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

// ChatToolCallDelta is one tool-call fragment of a chunk's choice 0, for AddDelta.
type ChatToolCallDelta struct {
	Index               int64
	ID, Name, Arguments string
}

// AddDelta takes one fragment of a chunk read in another form (the SDK's, in openaisdk).
func (s *ChatStream) AddDelta(d ChatToolCallDelta) {
	var wire chatDelta
	wire.Index, wire.ID, wire.Function.Name, wire.Function.Arguments = d.Index, d.ID, d.Name, d.Arguments
	s.add(wire)
}

// Finish records that choice 0 carried a finish_reason, for chunks read in another form.
func (s *ChatStream) Finish() { s.done = true }

// AddRun records a chunk's model and usage, for chunks read in another form; zero fields
// leave what an earlier chunk said.
func (s *ChatStream) AddRun(model string, inputTokens, outputTokens int64) {
	s.run.Model = cmp.Or(model, s.run.Model)
	if inputTokens != 0 || outputTokens != 0 {
		s.run.InputTokens, s.run.OutputTokens = inputTokens, outputTokens
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
		Model string     `json:"model"`
		Usage *chatUsage `json:"usage"`
	}
	if err := json.Unmarshal(chunk, &c); err != nil {
		return fmt.Errorf("openai: parsing a chat completion chunk: %w", err)
	}
	var usage chatUsage
	if c.Usage != nil {
		usage = *c.Usage
	}
	s.AddRun(c.Model, usage.PromptTokens, usage.CompletionTokens)
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
	return withRun(calls, s.run)
}

// ResponsesStream assembles function calls from the events of a streamed Response. Each call
// is complete, and returned by Add, when its response.function_call_arguments.done (or, at
// the latest, its response.output_item.done) event arrives, so it can be dispatched while the
// model is still writing the next one. Fragments are joined per item id. A call's Run holds
// the response's model (from response.created) when it completes; its usage comes with
// response.completed, after the calls, so Calls, called after the stream ended, gives them
// with it. A ResponsesStream is not safe for concurrent use.
type ResponsesStream struct {
	items    map[string]*streamItem
	complete []runtime.Call
	run      runtime.RunInfo
}

type streamItem struct {
	callID, name string
	args         strings.Builder
	emitted      bool
}

// ResponsesEvent is the part of a Responses stream event this assembler reads.
type ResponsesEvent struct {
	Type      string        `json:"type"`
	ItemID    string        `json:"item_id"`
	Delta     string        `json:"delta"`
	Arguments string        `json:"arguments"`
	Item      ResponsesItem `json:"item"`
	// Response is the response of response.created, response.in_progress and
	// response.completed events: its model and, once completed, its usage.
	Response struct {
		Model string         `json:"model"`
		Usage responsesUsage `json:"usage"`
	} `json:"response"`
}

// AddJSON takes one event as the JSON of a server-sent event's data and returns the call it
// completes, if any.
func (s *ResponsesStream) AddJSON(event []byte) (runtime.Call, bool, error) {
	var e ResponsesEvent
	if err := json.Unmarshal(event, &e); err != nil {
		return runtime.Call{}, false, fmt.Errorf("openai: parsing a response stream event: %w", err)
	}
	call, ok := s.AddEvent(e)
	return call, ok, nil
}

// AddEvent takes one event read in another form (the SDK's, in openaisdk) and returns the
// call it completes, if any.
func (s *ResponsesStream) AddEvent(e ResponsesEvent) (runtime.Call, bool) {
	if r := e.Response; r.Model != "" || r.Usage != (responsesUsage{}) {
		s.run.Model = cmp.Or(r.Model, s.run.Model)
		if r.Usage != (responsesUsage{}) {
			s.run.InputTokens, s.run.OutputTokens = r.Usage.InputTokens, r.Usage.OutputTokens
		}
	}
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
	return withRun([]runtime.Call{call}, s.run)[0], true
}

// Calls returns every call completed so far, in completion order, each with the response's
// model and usage as known now.
func (s *ResponsesStream) Calls() []runtime.Call {
	return withRun(slices.Clone(s.complete), s.run)
}
