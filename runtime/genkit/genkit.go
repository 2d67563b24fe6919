// Package genkit runs a toolgen registry's tools in Firebase Genkit for Go
// (github.com/firebase/genkit/go): each tool is defined as a Genkit tool whose calls go
// through Registry.Invoke, so validation with every problem's JSON path, timeouts, retries,
// loop guards, repair and approval all hold inside Genkit's tool-calling loop (Generate).
//
//	tools, err := toolgenkit.Define(g, reg, toolgenkit.Options{})
//	resp, err := genkit.Generate(ctx, g, ai.WithModel(model), ai.WithPrompt("Weather in Tokyo?"),
//		ai.WithTools(tools.Refs()...), ai.WithMiddleware(tools.Middleware()))
//
// # Schemas
//
// Genkit validates a tool's input against the schema it was defined with before the tool
// runs, and ends the whole generation when the input does not match, so the model would
// never read what was wrong. The tools are therefore defined with an empty input schema, and
// Middleware, a model middleware, declares to the model the JSON Schema toolgen emitted: the
// model sees the full schema, and the registry's decoder reports every problem for the model
// to correct. Pass both to every Generate that uses the tools.
//
// # Calls
//
// A Genkit tool function receives neither the request's ref (the provider's call id) nor a
// session: runtime.CallInfo.CallID is empty, and the session is Options.Session's, UserData
// Options.UserData's. Genkit's model plugins decode the arguments before the tool sees them,
// so a number beyond float64's precision is already rounded.
//
// # Results
//
// Genkit tool responses have no error flag: a failed call's output is a text starting with
// "Error", never a Go error, which would end the generation. A structured result's output is
// its JSON value, any other the text. A result's parts are described in the text and sent as
// the response's content parts (media as data URLs) for plugins that forward them.
//
// # Approval
//
// A //tool:confirm call that the registry does not decide itself interrupts the generation
// (a Genkit tool interrupt): resp.FinishReason is "interrupted" and ApprovalOf reads, from
// each of resp.Interrupts(), the tool, session, canonical arguments, reason and risk. Resume
// with the person's decision:
//
//	part, err := tools.Resume(interrupt, runtime.Decision{Approved: true, By: "ana"})
//	resp, err = genkit.Generate(ctx, g, ai.WithModel(model), ai.WithMessages(resp.History()...),
//		ai.WithTools(tools.Refs()...), ai.WithMiddleware(tools.Middleware()), ai.WithToolRestarts(part))
//
// Approved, the call runs once (with Decision.Args, validated again, when set); denied, the
// model reads the reason. A restart without a decision denies: approval fails closed. With a
// registry that queues approvals (runtime.WithApprovalQueue) the decision is recorded in the
// queue before the call runs. A client tool (//tool:client) has no one to run it and is
// refused.
//
// The package is its own Go module, so programs that do not import it never download Genkit.
package genkit

import (
	"context"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/firebase/genkit/go/ai"
	"github.com/firebase/genkit/go/genkit"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/parttext"
	"github.com/toolgen-go/toolgen/runtime/internal/pausedapproval"
)

// approvalKey names the Approval in an interrupt's metadata, and decisionKey the decision in
// a restart's resumed metadata.
const (
	approvalKey = "toolgenApproval"
	decisionKey = "toolgenDecision"
)

// Approval is what a //tool:confirm call's interrupt asks the person to approve: the tool,
// session, canonical arguments (what the approval covers), reason, risk, and RequestID when
// the registry queues approvals.
type Approval = pausedapproval.Request

// Options says how the tools fill the runtime.Call of each call.
type Options struct {
	// Session returns the session (conversation) a call belongs to; nil sets none.
	Session func(ctx context.Context) string
	// UserData returns the runtime.Call.UserData of a call; nil sets none.
	UserData func(ctx context.Context) any
}

// Tools are a registry's tools defined in a Genkit instance.
type Tools struct {
	defs    []ai.Tool
	schemas map[string]map[string]any // toolgen's input schema of each tool, by name
}

// Define defines the registry's tools named in names (all of them when names is empty), in
// name order, in g. Each call goes through reg.Invoke. It fails when a name is not in the
// registry or a tool's input schema is not a JSON object; Genkit panics when a name is
// already defined in g.
func Define(g *genkit.Genkit, reg *runtime.Registry, opts Options, names ...string) (*Tools, error) {
	var list []runtime.Tool
	if len(names) == 0 {
		list = reg.Tools()
	}
	for _, name := range names {
		t, ok := reg.Tool(name)
		if !ok {
			return nil, fmt.Errorf("genkit: no tool %q in the registry", name)
		}
		list = append(list, t)
	}
	out := &Tools{schemas: make(map[string]map[string]any, len(list))}
	for _, t := range list {
		schema := map[string]any{"type": "object"}
		if len(t.InputSchema) > 0 {
			if err := json.Unmarshal(t.InputSchema, &schema); err != nil {
				return nil, fmt.Errorf("genkit: tool %q: the input schema is not a JSON object: %w", t.Name, err)
			}
		}
		out.schemas[t.Name] = schema
		run := runner{reg: reg, name: t.Name, opts: opts}
		// An empty schema, which Genkit's validation accepts whatever the model sends:
		// Middleware declares the real one (see the package doc).
		out.defs = append(out.defs, genkit.DefineMultipartTool(g, t.Name, t.ModelDescription(), run.run, ai.WithInputSchema(map[string]any{})))
	}
	return out, nil
}

// Refs returns the tools for ai.WithTools.
func (t *Tools) Refs() []ai.ToolRef {
	refs := make([]ai.ToolRef, len(t.defs))
	for i, d := range t.defs {
		refs[i] = d
	}
	return refs
}

// Middleware returns the model middleware that declares each tool's input schema, as toolgen
// emitted it, in the requests to the model. Pass it with ai.WithMiddleware wherever the tools
// are passed.
func (t *Tools) Middleware() ai.ModelMiddleware {
	return func(next ai.ModelFunc) ai.ModelFunc {
		return func(ctx context.Context, req *ai.ModelRequest, cb ai.ModelStreamCallback) (*ai.ModelResponse, error) {
			if req != nil && len(req.Tools) > 0 {
				declared := *req
				declared.Tools = slices.Clone(req.Tools)
				for i, d := range declared.Tools {
					if schema, ok := t.schemas[d.Name]; ok && d != nil {
						withSchema := *d
						withSchema.InputSchema = schema
						declared.Tools[i] = &withSchema
					}
				}
				req = &declared
			}
			return next(ctx, req, cb)
		}
	}
}

// ApprovalOf returns the approval an interrupt part (one of ModelResponse.Interrupts) asks
// for, or false when the interrupt is not a toolgen approval.
func ApprovalOf(interrupt *ai.Part) (*Approval, bool) {
	if interrupt == nil {
		return nil, false
	}
	meta, _ := interrupt.Metadata["interrupt"].(map[string]any)
	return approvalFrom(meta[approvalKey])
}

// Resume returns the part to pass to ai.WithToolRestarts that resumes the interrupted call
// with dec as its decision.
func (t *Tools) Resume(interrupt *ai.Part, dec runtime.Decision) (*ai.Part, error) {
	a, ok := ApprovalOf(interrupt)
	if !ok || !interrupt.IsToolRequest() {
		return nil, fmt.Errorf("genkit: the part is not a toolgen approval interrupt")
	}
	for _, d := range t.defs {
		if d.Name() == interrupt.ToolRequest.Name {
			return d.Restart(interrupt, &ai.RestartOptions{ResumedMetadata: map[string]any{approvalKey: a, decisionKey: dec}}), nil
		}
	}
	return nil, fmt.Errorf("genkit: the interrupted tool %q is not one of these tools", interrupt.ToolRequest.Name)
}

// approvalFrom reads an Approval from interrupt or resumed metadata: the value itself, or its
// JSON form decoded into an any once the history went through JSON.
func approvalFrom(v any) (*Approval, bool) {
	switch a := v.(type) {
	case *Approval:
		return a, a != nil
	case nil:
		return nil, false
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, false
	}
	var a Approval
	if json.Unmarshal(b, &a) != nil || a.Tool == "" {
		return nil, false
	}
	return &a, true
}

// runner runs one tool's calls.
type runner struct {
	reg  *runtime.Registry
	name string
	opts Options
}

func (r runner) run(tc *ai.ToolContext, input any) (*ai.MultipartToolResponse, error) {
	call := runtime.Call{Name: r.name}
	switch in := input.(type) {
	case nil:
	case string: // a plugin that passes the arguments' text
		call.Args = []byte(in)
	default:
		args, err := json.Marshal(in)
		if err != nil {
			return response(runtime.Result{Text: "the arguments are not JSON: " + err.Error(), IsError: true}), nil
		}
		call.Args = args
	}
	if r.opts.Session != nil {
		call.Session = r.opts.Session(tc)
	}
	if r.opts.UserData != nil {
		call.UserData = r.opts.UserData(tc)
	}
	if tc.Resumed != nil {
		if a, ok := approvalFrom(tc.Resumed[approvalKey]); ok {
			res, err := pausedapproval.Resume(tc, r.reg, call, a, pausedapproval.DecisionOf(tc.Resumed[decisionKey]))
			if err != nil {
				return nil, err
			}
			return response(res), nil
		}
	}
	res, asked := pausedapproval.Invoke(tc, r.reg, call)
	if asked != nil {
		return nil, tc.Interrupt(&ai.InterruptOptions{Metadata: map[string]any{approvalKey: asked}})
	}
	if res.ClientCall != nil {
		res = pausedapproval.ClientRefused(r.name)
	}
	return response(res), nil
}

// response returns res as a Genkit tool response: a structured result's JSON value, else the
// text (Error-prefixed on failure, parts described), and the parts as content.
func response(res runtime.Result) *ai.MultipartToolResponse {
	out := &ai.MultipartToolResponse{Output: parttext.TextOnly(res, "Genkit")}
	if res.Structured != nil && !res.IsError && len(res.Parts) == 0 {
		out.Output = res.Structured
	}
	for _, p := range res.Parts {
		if data, mime, binary := parttext.Binary(p); binary {
			out.Content = append(out.Content, ai.NewMediaPart(mime, parttext.DataURL(mime, data)))
		} else {
			out.Content = append(out.Content, ai.NewTextPart(parttext.AsText(p, "Genkit")))
		}
	}
	return out
}
