// Package geminisdk gives the forms of runtime/gemini typed by the official Go SDK
// (google.golang.org/genai): a *genai.Tool holding the function declarations, calls from the
// SDK's function calls, and results as SDK parts. Dispatching stays gemini.Dispatch. This
// package is apart so that a program that speaks the wire JSON with runtime/gemini never
// compiles the SDK.
//
// One turn:
//
//	tool, err := geminisdk.Tool(reg.Tools())   // config.Tools
//	…
//	calls, err := geminisdk.Calls(resp.FunctionCalls())
//	outs := gemini.Dispatch(ctx, reg, calls)
//	contents = append(contents, resp.Candidates[0].Content,
//		genai.NewContentFromParts(geminisdk.Responses(outs), genai.RoleUser))
package geminisdk

import (
	"bytes"
	"encoding/json"
	"fmt"

	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/runtime"
	toolgemini "github.com/toolgen-go/toolgen/runtime/gemini"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Tool returns tools as one SDK tool holding their function declarations, for
// genai.GenerateContentConfig.Tools. It sends what gemini.ToolsJSON sends.
func Tool(tools []runtime.Tool) (*genai.Tool, error) {
	decls, err := toolgemini.Declarations(tools)
	if err != nil {
		return nil, err
	}
	out := &genai.Tool{}
	for _, d := range decls {
		fd := &genai.FunctionDeclaration{Name: d.Name, Description: d.Description}
		if d.ParametersJSONSchema != nil {
			// Raw JSON, so the SDK sends the schema byte for byte.
			fd.ParametersJsonSchema = d.ParametersJSONSchema
		} else {
			var s genai.Schema
			if err := json.Unmarshal(d.Parameters, &s); err != nil {
				return nil, fmt.Errorf("gemini: tool %q: the %q variant is not a Gemini schema: %w", d.Name, variant.GeminiParameters, err)
			}
			fd.Parameters = &s
		}
		if d.ResponseJSONSchema != nil {
			fd.ResponseJsonSchema = d.ResponseJSONSchema
		}
		out.FunctionDeclarations = append(out.FunctionDeclarations, fd)
	}
	return out, nil
}

// Calls returns function calls as calls, in order (pass resp.FunctionCalls()). Call.ID is
// the call's id, empty when the model gave none; the answer is then matched by name and
// order.
func Calls(fcs []*genai.FunctionCall) ([]runtime.Call, error) {
	calls := make([]runtime.Call, 0, len(fcs))
	for _, fc := range fcs {
		if fc == nil {
			continue
		}
		args := []byte("{}")
		if fc.Args != nil {
			var err error
			if args, err = json.Marshal(fc.Args); err != nil {
				return nil, fmt.Errorf("gemini: arguments of %s: %w", fc.Name, err)
			}
		}
		calls = append(calls, runtime.Call{ID: fc.ID, Name: fc.Name, Args: args})
	}
	return calls, nil
}

// Response returns the functionResponse part that answers call with res. A structured
// result's output is its JSON value decoded for the SDK, numbers as json.Number so that they
// keep their exact text.
func Response(call runtime.Call, res runtime.Result) *genai.Part {
	obj := toolgemini.ResponseObject(res)
	if raw, ok := obj["output"].(json.RawMessage); ok {
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if dec.Decode(&v) == nil {
			obj["output"] = v
		}
	}
	fr := &genai.FunctionResponse{ID: call.ID, Name: call.Name, Response: obj}
	inline, _ := toolgemini.InlineParts(res)
	for _, p := range inline {
		fr.Parts = append(fr.Parts, &genai.FunctionResponsePart{InlineData: &genai.FunctionResponseBlob{
			MIMEType: p.InlineData.MIMEType, Data: p.InlineData.Data, DisplayName: p.InlineData.DisplayName}})
	}
	return &genai.Part{FunctionResponse: fr}
}

// Responses returns one functionResponse part per outcome, in order, leaving out client calls
// (the host answers those with Response). Send them as
// genai.NewContentFromParts(parts, genai.RoleUser).
func Responses(outs []toolgemini.Outcome) []*genai.Part {
	var parts []*genai.Part
	for _, o := range outs {
		if o.Result.ClientCall == nil {
			parts = append(parts, Response(o.Call, o.Result))
		}
	}
	return parts
}
