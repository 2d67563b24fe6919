// Code generated from ../anthropicsdk/anthropicsdk.go by go test -run TestFilesFollowV1 -update. DO NOT EDIT.

// Package anthropicsdkv2 gives the forms of runtime/anthropic typed by the official Go SDK
// (github.com/anthropics/anthropic-sdk-go/v2): tool params for a request, calls from the SDK's
// Message and stream events, and results as SDK content blocks. Dispatching stays
// anthropic.Dispatch. This package is apart so that a program that speaks the wire JSON with
// runtime/anthropic never compiles the SDK.
//
// One turn:
//
//	tools, err := anthropicsdk.Tools(reg.Tools())   // params.Tools
//	…
//	outs := anthropic.Dispatch(ctx, reg, anthropicsdk.Calls(*msg))
//	params.Messages = append(params.Messages, msg.ToParam(),
//		sdk.NewUserMessage(anthropicsdk.ToolResults(outs)...))
package anthropicsdkv2

import (
	"encoding/json"
	"fmt"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/packages/param"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
)

// Tools returns tools as the SDK's tool params, for anthropic.MessageNewParams.Tools. It sends
// what anthropic.ToolsJSON sends, with the same options.
func Tools(tools []runtime.Tool, opts ...toolanthropic.Option) ([]anthropic.ToolUnionParam, error) {
	decls, err := toolanthropic.Declarations(tools, opts...)
	if err != nil {
		return nil, err
	}
	out := make([]anthropic.ToolUnionParam, 0, len(decls)+1)
	for _, d := range decls {
		schema, err := inputSchema(d)
		if err != nil {
			return nil, err
		}
		p := &anthropic.ToolParam{Name: d.Name, InputSchema: schema, AllowedCallers: d.AllowedCallers}
		if d.Description != "" {
			p.Description = param.NewOpt(d.Description)
		}
		if d.Strict {
			p.Strict = param.NewOpt(true)
		}
		if d.DeferLoading {
			p.DeferLoading = param.NewOpt(true)
		}
		for _, e := range d.InputExamples {
			var example map[string]any
			if err := json.Unmarshal(e, &example); err != nil {
				return nil, fmt.Errorf("anthropic: tool %q: an example is not a JSON object: %w", d.Name, err)
			}
			p.InputExamples = append(p.InputExamples, example)
		}
		out = append(out, anthropic.ToolUnionParam{OfTool: p})
	}
	if toolanthropic.HasDeferred(decls) {
		out = append(out, anthropic.ToolUnionParam{OfToolSearchToolBm25_20251119: &anthropic.ToolSearchToolBm25_20251119Param{Type: toolanthropic.ToolSearchType}})
	}
	return out, nil
}

// inputSchema splits a schema into the SDK's fields. Values stay raw JSON, so nothing is
// reordered or reformatted on the way (the model writes inputs in properties order).
func inputSchema(d toolanthropic.Declaration) (anthropic.ToolInputSchemaParam, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(d.Schema, &top); err != nil {
		return anthropic.ToolInputSchemaParam{}, fmt.Errorf("anthropic: tool %q: the schema variant is not a JSON object: %w", d.Name, err)
	}
	var s anthropic.ToolInputSchemaParam
	for k, v := range top {
		switch k {
		case "type": // always "object"; the SDK writes it
		case "properties":
			s.Properties = v
		case "required":
			if err := json.Unmarshal(v, &s.Required); err != nil {
				return s, fmt.Errorf("anthropic: tool %q: required is not a list of names: %w", d.Name, err)
			}
		default:
			if s.ExtraFields == nil {
				s.ExtraFields = make(map[string]any)
			}
			s.ExtraFields[k] = v
		}
	}
	return s, nil
}

// Calls returns the tool_use blocks of a message as calls, in order. The input is already a
// JSON object; anthropic.Dispatch validates it.
func Calls(msg anthropic.Message) []runtime.Call {
	var calls []runtime.Call
	for _, b := range msg.Content {
		if b.Type == "tool_use" {
			calls = append(calls, runtime.Call{ID: b.ID, Name: b.Name, Args: []byte(b.Input)})
		}
	}
	return calls
}

// ToolResult returns the tool_result block that answers the tool_use toolUseID with res:
// the result's text as content and is_error on failure. An effect-only result (or an empty
// text) gets no content: the effects are the host's, but the tool_use must still be answered.
func ToolResult(toolUseID string, res runtime.Result) anthropic.ContentBlockParamUnion {
	block := &anthropic.ToolResultBlockParam{ToolUseID: toolUseID}
	if blocks := toolanthropic.Blocks(res); blocks != nil {
		for _, b := range blocks {
			block.Content = append(block.Content, contentBlock(b))
		}
	} else if text := toolanthropic.Content(res); text != "" {
		block.Content = []anthropic.ToolResultBlockParamContentUnion{{OfText: &anthropic.TextBlockParam{Text: text}}}
	}
	if res.IsError {
		block.IsError = param.NewOpt(true)
	}
	return anthropic.ContentBlockParamUnion{OfToolResult: block}
}

// contentBlock returns a wire block of a tool_result (toolanthropic.Blocks) as the SDK's.
func contentBlock(b toolanthropic.Block) anthropic.ToolResultBlockParamContentUnion {
	switch b.Type {
	case "image":
		return anthropic.ToolResultBlockParamContentUnion{OfImage: &anthropic.ImageBlockParam{Source: anthropic.ImageBlockParamSourceUnion{
			OfBase64: &anthropic.Base64ImageSourceParam{Data: b.Source.Data, MediaType: anthropic.Base64ImageSourceMediaType(b.Source.MediaType)}}}}
	case "document":
		return anthropic.ToolResultBlockParamContentUnion{OfDocument: &anthropic.DocumentBlockParam{Source: anthropic.DocumentBlockParamSourceUnion{
			OfBase64: &anthropic.Base64PDFSourceParam{Data: b.Source.Data}}}}
	}
	return anthropic.ToolResultBlockParamContentUnion{OfText: &anthropic.TextBlockParam{Text: b.Text}}
}

// ToolResults returns one tool_result block per outcome, in order, leaving out client calls
// (the host answers those with ToolResult). They go first in the next user message:
// anthropic.NewUserMessage(blocks...).
func ToolResults(outs []toolanthropic.Outcome) []anthropic.ContentBlockParamUnion {
	var blocks []anthropic.ContentBlockParamUnion
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			blocks = append(blocks, ToolResult(o.Call.ID, o.Result))
		}
	}
	return blocks
}

// Stream is anthropic.Stream fed with the SDK's events.
type Stream struct{ toolanthropic.Stream }

// Add takes one event from the SDK's stream (stream.Current()) and returns the call it
// completes, if any.
func (s *Stream) Add(ev anthropic.MessageStreamEventUnion) (runtime.Call, bool) {
	var e toolanthropic.StreamEvent
	e.Type, e.Index = ev.Type, ev.Index
	if ev.Type == "content_block_start" && ev.ContentBlock.Type == "tool_use" {
		e.ContentBlock.Type, e.ContentBlock.ID, e.ContentBlock.Name = ev.ContentBlock.Type, ev.ContentBlock.ID, ev.ContentBlock.Name
		if ev.ContentBlock.Input != nil {
			e.ContentBlock.Input, _ = json.Marshal(ev.ContentBlock.Input)
		}
	}
	e.Delta.Type, e.Delta.PartialJSON = ev.Delta.Type, ev.Delta.PartialJSON
	if ev.Type == "message_start" {
		m := ev.Message
		e.Message.Model = string(m.Model)
		e.Message.Usage.InputTokens, e.Message.Usage.OutputTokens = m.Usage.InputTokens, m.Usage.OutputTokens
		e.Message.Usage.CacheCreationInputTokens, e.Message.Usage.CacheReadInputTokens = m.Usage.CacheCreationInputTokens, m.Usage.CacheReadInputTokens
	}
	if ev.Type == "message_delta" {
		u := ev.Usage
		e.Usage.InputTokens, e.Usage.OutputTokens = u.InputTokens, u.OutputTokens
		e.Usage.CacheCreationInputTokens, e.Usage.CacheReadInputTokens = u.CacheCreationInputTokens, u.CacheReadInputTokens
	}
	return s.AddEvent(e)
}
