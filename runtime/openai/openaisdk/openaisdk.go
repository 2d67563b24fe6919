// Package openaisdk gives the forms of runtime/openai typed by the official Go SDK
// (github.com/openai/openai-go/v3): tool params for a request, calls from the SDK's response
// and stream types, and results as SDK messages and input items. Dispatching stays
// openai.Dispatch. This package is apart so that a program that speaks the wire JSON with
// runtime/openai never compiles the SDK.
//
// One Chat Completions turn:
//
//	tools, err := openaisdk.ChatTools(reg.Tools())   // params.Tools
//	…
//	msg := resp.Choices[0].Message
//	outs := openai.Dispatch(ctx, reg, openaisdk.ChatCalls(msg))
//	params.Messages = append(params.Messages, msg.ToParam())
//	params.Messages = append(params.Messages, openaisdk.ChatToolMessages(outs)...)
//
// For Responses, ResponsesTools, ResponsesCalls, then ResponsesReplay (unless the request
// uses previous_response_id) followed by ResponsesOutputs.
package openaisdk

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/packages/param"
	"github.com/openai/openai-go/v3/responses"
	"github.com/openai/openai-go/v3/shared"

	"github.com/toolgen-go/toolgen/runtime"
	toolopenai "github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// ChatTools returns tools as the SDK's Chat Completions tool params, for
// openai.ChatCompletionNewParams.Tools. It sends what openai.ChatToolsJSON sends.
func ChatTools(tools []runtime.Tool) ([]openai.ChatCompletionToolUnionParam, error) {
	decls, err := toolopenai.Declarations(tools)
	if err != nil {
		return nil, err
	}
	out := make([]openai.ChatCompletionToolUnionParam, len(decls))
	for i, d := range decls {
		params, err := schemaParams(d)
		if err != nil {
			return nil, err
		}
		def := shared.FunctionDefinitionParam{Name: d.Name, Parameters: params, Strict: param.NewOpt(d.Strict)}
		if d.Description != "" {
			def.Description = param.NewOpt(d.Description)
		}
		out[i] = openai.ChatCompletionFunctionTool(def)
	}
	return out, nil
}

// ResponsesTools returns tools as the SDK's Responses tool params, for
// responses.ResponseNewParams.Tools. Strict is always set, as the Responses API otherwise
// decides on its own whether to enforce the schema.
func ResponsesTools(tools []runtime.Tool) ([]responses.ToolUnionParam, error) {
	decls, err := toolopenai.Declarations(tools)
	if err != nil {
		return nil, err
	}
	var out []responses.ToolUnionParam
	spaces := map[string]*responses.NamespaceToolParam{}
	for _, d := range decls {
		params, err := schemaParams(d)
		if err != nil {
			return nil, err
		}
		var output map[string]any
		if len(d.OutputSchema) > 0 {
			if err := json.Unmarshal(d.OutputSchema, &output); err != nil {
				return nil, fmt.Errorf("openai: tool %q: the output schema is not a JSON object: %w", d.Name, err)
			}
		}
		fn := responses.FunctionToolParam{Name: d.Name, Parameters: params, Strict: param.NewOpt(d.Strict),
			AllowedCallers: d.AllowedCallers, OutputSchema: output}
		if d.Description != "" {
			fn.Description = param.NewOpt(d.Description)
		}
		if d.DeferLoading {
			fn.DeferLoading = param.NewOpt(true)
		}
		if d.Namespace == "" {
			out = append(out, responses.ToolUnionParam{OfFunction: &fn})
			continue
		}
		ns := spaces[d.Namespace]
		if ns == nil {
			ns = &responses.NamespaceToolParam{Name: d.Namespace}
			spaces[d.Namespace] = ns
			out = append(out, responses.ToolUnionParam{OfNamespace: ns})
		}
		member := responses.NamespaceToolToolFunctionParam{Name: fn.Name, Description: fn.Description, Strict: fn.Strict,
			DeferLoading: fn.DeferLoading, AllowedCallers: fn.AllowedCallers, OutputSchema: fn.OutputSchema, Parameters: fn.Parameters}
		ns.Tools = append(ns.Tools, responses.NamespaceToolToolUnionParam{OfFunction: &member})
	}
	descriptions := toolopenai.NamespaceDescriptions(decls)
	for _, ns := range spaces {
		ns.Description = descriptions[ns.Name]
	}
	if toolopenai.HasDeferred(decls) {
		out = append(out, responses.ToolUnionParam{OfToolSearch: &responses.ToolSearchToolParam{}})
	}
	return out, nil
}

// schemaParams turns a schema into the map the SDK wants. Each top-level value stays raw
// JSON, so the order of "properties" (which OpenAI follows when it writes arguments) survives
// the SDK's map.
func schemaParams(d toolopenai.Declaration) (map[string]any, error) {
	var top map[string]json.RawMessage
	if err := json.Unmarshal(d.Schema, &top); err != nil {
		return nil, fmt.Errorf("openai: tool %q: the %q schema variant is not a JSON object: %w", d.Name, variant.OpenAI, err)
	}
	params := make(map[string]any, len(top))
	for k, v := range top {
		params[k] = v
	}
	return params, nil
}

// ChatCalls returns the function calls of an assistant message, in order. The arguments stay
// the raw string the model wrote; openai.Dispatch validates them. Custom-tool calls are
// skipped: toolgen declares function tools only.
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

// ResponsesCalls returns the function calls among a response's output items, in order. Each
// Call.ID is the item's call_id, which its function_call_output must carry.
func ResponsesCalls(output []responses.ResponseOutputItemUnion) []runtime.Call {
	items := make([]toolopenai.ResponsesItem, 0, len(output))
	for _, item := range output {
		if item.Type == "function_call" {
			fc := item.AsFunctionCall()
			items = append(items, toolopenai.ResponsesItem{Type: item.Type, ID: fc.ID, CallID: fc.CallID, Name: fc.Name, Arguments: fc.Arguments})
		}
	}
	return toolopenai.ResponsesCalls(items)
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

// ChatToolMessage returns the tool message that answers call callID with res.
func ChatToolMessage(callID string, res runtime.Result) openai.ChatCompletionMessageParamUnion {
	return openai.ToolMessage(toolopenai.ChatContent(res), callID)
}

// ChatToolMessages returns one tool message per outcome, in order, leaving out client calls
// (the host answers those with ChatToolMessage). Send them right after the assistant message
// that made the calls.
func ChatToolMessages(outs []toolopenai.Outcome) []openai.ChatCompletionMessageParamUnion {
	var msgs []openai.ChatCompletionMessageParamUnion
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			msgs = append(msgs, ChatToolMessage(o.Call.ID, o.Result))
		}
	}
	return msgs
}

// ResponsesOutput returns the function_call_output item that answers the call whose call_id
// is callID with res.
func ResponsesOutput(callID string, res runtime.Result) responses.ResponseInputItemUnionParam {
	output := responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfString: param.NewOpt(toolopenai.Content(res))}
	if items := toolopenai.OutputItems(res); items != nil {
		output = responses.ResponseInputItemFunctionCallOutputOutputUnionParam{OfResponseFunctionCallOutputItemArray: outputItems(items)}
	}
	return responses.ResponseInputItemUnionParam{OfFunctionCallOutput: &responses.ResponseInputItemFunctionCallOutputParam{
		CallID: param.NewOpt(callID),
		Output: output,
	}}
}

// outputItems returns the wire items of an array output (toolopenai.OutputItems) as the SDK's.
func outputItems(items []toolopenai.OutputItem) responses.ResponseFunctionCallOutputItemListParam {
	out := make(responses.ResponseFunctionCallOutputItemListParam, len(items))
	for i, it := range items {
		switch it.Type {
		case "input_image":
			out[i].OfInputImage = &responses.ResponseInputImageContentParam{ImageURL: param.NewOpt(it.ImageURL)}
		case "input_file":
			out[i].OfInputFile = &responses.ResponseInputFileContentParam{FileData: param.NewOpt(it.FileData), Filename: param.NewOpt(it.Filename)}
		default:
			out[i].OfInputText = &responses.ResponseInputTextContentParam{Text: it.Text}
		}
	}
	return out
}

// ResponsesOutputs returns one function_call_output item per outcome, in order, leaving out
// client calls (the host answers those with ResponsesOutput).
func ResponsesOutputs(outs []toolopenai.Outcome) []responses.ResponseInputItemUnionParam {
	var items []responses.ResponseInputItemUnionParam
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			items = append(items, ResponsesOutput(o.Call.ID, o.Result))
		}
	}
	return items
}

// ChatStream is openai.ChatStream fed with the SDK's chunks.
type ChatStream struct{ toolopenai.ChatStream }

// Add takes one chunk from the SDK's stream (stream.Current()).
func (s *ChatStream) Add(chunk openai.ChatCompletionChunk) {
	s.AddRun(chunk.Model, chunk.Usage.PromptTokens, chunk.Usage.CompletionTokens)
	for _, choice := range chunk.Choices {
		if choice.Index != 0 {
			continue
		}
		for _, tc := range choice.Delta.ToolCalls {
			s.AddDelta(toolopenai.ChatToolCallDelta{Index: tc.Index, ID: tc.ID, Name: tc.Function.Name, Arguments: tc.Function.Arguments})
		}
		if choice.FinishReason != "" {
			s.Finish()
		}
	}
}

// ResponsesStream is openai.ResponsesStream fed with the SDK's events.
type ResponsesStream struct{ toolopenai.ResponsesStream }

// Add takes one event from the SDK's stream (stream.Current()) and returns the call it
// completes, if any.
func (s *ResponsesStream) Add(ev responses.ResponseStreamEventUnion) (runtime.Call, bool) {
	e := toolopenai.ResponsesEvent{Type: ev.Type, ItemID: ev.ItemID, Delta: ev.Delta, Arguments: ev.Arguments}
	e.Response.Model = string(ev.Response.Model)
	e.Response.Usage.InputTokens, e.Response.Usage.OutputTokens = ev.Response.Usage.InputTokens, ev.Response.Usage.OutputTokens
	if ev.Item.Type == "function_call" {
		fc := ev.Item.AsFunctionCall()
		e.Item = toolopenai.ResponsesItem{Type: string(fc.Type), ID: fc.ID, CallID: fc.CallID, Name: fc.Name, Arguments: fc.Arguments}
	}
	return s.AddEvent(e)
}
