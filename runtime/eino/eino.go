package eino

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"

	"github.com/cloudwego/eino/adk"
	"github.com/cloudwego/eino/components/tool"
	"github.com/cloudwego/eino/compose"
	"github.com/cloudwego/eino/schema"
	"github.com/eino-contrib/jsonschema"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/parttext"
	"github.com/toolgen-go/toolgen/runtime/internal/pausedapproval"
)

// SessionKey is the ADK session value (adk.WithSessionValues) read as a call's
// runtime.Call.Session when Options.Session is nil.
const SessionKey = "toolgen.session"

// Options says how the tools fill the runtime.Call of each call. The zero value reads the
// session from the ADK session value SessionKey and sets no UserData.
type Options struct {
	// Session returns the session (conversation) a call belongs to, for loop guards, session
	// state and approvals; nil reads the ADK session value SessionKey when it is a string.
	Session func(ctx context.Context) string
	// UserData returns the runtime.Call.UserData of a call; nil sets none.
	UserData func(ctx context.Context) any
}

// Approval is the interrupt a //tool:confirm call raises (its InterruptCtx.Info, and the
// state the tool keeps across the checkpoint): the tool, call id, session, canonical
// arguments (what the approval covers), reason, risk, and RequestID when the registry queues
// approvals (runtime.WithApprovalQueue). Resume the run with a runtime.Decision for the
// interrupt's ID (adk.Runner.ResumeWithParams).
type Approval = pausedapproval.Request

func init() {
	// Checkpoints are gob-encoded: the interrupt's state must be a registered type.
	schema.RegisterName[*Approval]("toolgen_eino_approval")
}

// Tool is a registry's tool as an eino tool.InvokableTool: the model reads one text, its
// parts described in words (see EnhancedTool for a result's images and files).
type Tool struct{ core }

// EnhancedTool is a registry's tool as an eino tool.EnhancedInvokableTool, whose results
// carry a result's images, audio and files as eino tool output parts, for chat models that
// accept them in tool results.
type EnhancedTool struct{ core }

var (
	_ tool.InvokableTool         = (*Tool)(nil)
	_ tool.EnhancedInvokableTool = (*EnhancedTool)(nil)
)

// core is what both forms share: the tool's declaration and the registry that runs it.
type core struct {
	reg  *runtime.Registry
	info *schema.ToolInfo
	opts Options
}

// Tools returns the registry's tools named in names (all of them when names is empty), in
// name order, as eino tools for compose.ToolsNodeConfig.Tools or adk.ToolsConfig. Each call
// goes through reg.Invoke, so every policy of the registry holds. It fails when a name is not
// in the registry or a tool's schema cannot be carried by eino's schema type.
func Tools(reg *runtime.Registry, opts Options, names ...string) ([]tool.BaseTool, error) {
	cores, err := coresOf(reg, opts, names)
	if err != nil {
		return nil, err
	}
	out := make([]tool.BaseTool, len(cores))
	for i, c := range cores {
		out[i] = &Tool{c}
	}
	return out, nil
}

// EnhancedTools is Tools with each tool an EnhancedTool.
func EnhancedTools(reg *runtime.Registry, opts Options, names ...string) ([]tool.BaseTool, error) {
	cores, err := coresOf(reg, opts, names)
	if err != nil {
		return nil, err
	}
	out := make([]tool.BaseTool, len(cores))
	for i, c := range cores {
		out[i] = &EnhancedTool{c}
	}
	return out, nil
}

func coresOf(reg *runtime.Registry, opts Options, names []string) ([]core, error) {
	var tools []runtime.Tool
	if len(names) == 0 {
		tools = reg.Tools()
	}
	for _, name := range names {
		t, ok := reg.Tool(name)
		if !ok {
			return nil, fmt.Errorf("eino: no tool %q in the registry", name)
		}
		tools = append(tools, t)
	}
	cores := make([]core, len(tools))
	for i, t := range tools {
		info, err := ToolInfo(t)
		if err != nil {
			return nil, err
		}
		cores[i] = core{reg: reg, info: info, opts: opts}
	}
	return cores, nil
}

// ToolsNodeConfig returns a ToolsNodeConfig for adk.ToolsConfig or a compose ToolsNode with
// the tools Tools returns and an UnknownToolsHandler (UnknownTools), so that a call naming no
// tool is answered for the model to correct instead of failing the run.
func ToolsNodeConfig(reg *runtime.Registry, opts Options, names ...string) (compose.ToolsNodeConfig, error) {
	tools, err := Tools(reg, opts, names...)
	if err != nil {
		return compose.ToolsNodeConfig{}, err
	}
	return compose.ToolsNodeConfig{Tools: tools, UnknownToolsHandler: UnknownTools(reg, opts)}, nil
}

// UnknownTools returns a compose.ToolsNodeConfig.UnknownToolsHandler that hands the call to
// reg.Invoke: the model reads the registry's unknown-tool text (the nearest name, the
// available tools), and a registry built with runtime.WithRepair runs a call whose name
// differs from a tool's only in case or separators, with every policy. Without it eino fails
// the whole run on a misspelt tool name.
func UnknownTools(reg *runtime.Registry, opts Options) func(ctx context.Context, name, input string) (string, error) {
	return func(ctx context.Context, name, input string) (string, error) {
		c := core{reg: reg, info: &schema.ToolInfo{Name: name}, opts: opts}
		res, err := c.invoke(ctx, input)
		if err != nil {
			return "", err
		}
		return parttext.TextOnly(res, "eino"), nil
	}
}

// ToolInfo returns t's declaration for an eino chat model: its name, description and the
// JSON Schema toolgen emitted for its arguments. It fails when eino's schema type would drop
// or change a keyword of that schema, so the model is never told less than the decoder
// checks.
func ToolInfo(t runtime.Tool) (*schema.ToolInfo, error) {
	info := &schema.ToolInfo{Name: t.Name, Desc: t.ModelDescription()}
	if len(t.InputSchema) == 0 {
		return info, nil
	}
	var s jsonschema.Schema
	if err := json.Unmarshal(t.InputSchema, &s); err != nil {
		return nil, fmt.Errorf("eino: tool %q: the input schema is not a JSON Schema object: %w", t.Name, err)
	}
	back, err := json.Marshal(&s)
	if err != nil {
		return nil, fmt.Errorf("eino: tool %q: %w", t.Name, err)
	}
	var want, got any
	if json.Unmarshal(t.InputSchema, &want) != nil || json.Unmarshal(back, &got) != nil || !reflect.DeepEqual(want, got) {
		return nil, fmt.Errorf("eino: tool %q: eino's jsonschema.Schema cannot carry its input schema unchanged (%s becomes %s)", t.Name, t.InputSchema, back)
	}
	info.ParamsOneOf = schema.NewParamsOneOfByJSONSchema(&s)
	return info, nil
}

// Info returns the tool's declaration.
func (c *core) Info(context.Context) (*schema.ToolInfo, error) { return c.info, nil }

// InvokableRun runs one call through the registry and returns what the model reads. A
// failed call (invalid arguments, a handler error, a denial) is a text starting with "Error",
// never a Go error, which would end the agent's run: the model reads it and can correct
// itself. The only errors are eino interrupts: a //tool:confirm call waiting for approval.
func (t *Tool) InvokableRun(ctx context.Context, args string, _ ...tool.Option) (string, error) {
	res, err := t.invoke(ctx, args)
	if err != nil {
		return "", err
	}
	return parttext.TextOnly(res, "eino"), nil
}

// InvokableRun is Tool.InvokableRun with the result's parts as eino tool output parts: images,
// audio and binary resources as base64 data with their MIME type, resource links and text
// resources as text.
func (t *EnhancedTool) InvokableRun(ctx context.Context, arg *schema.ToolArgument, _ ...tool.Option) (*schema.ToolResult, error) {
	var args string
	if arg != nil {
		args = arg.Text
	}
	res, err := t.invoke(ctx, args)
	if err != nil {
		return nil, err
	}
	return ToolResult(res), nil
}

// ToolResult returns res as an eino tool result: its text (Error-prefixed on failure), then
// one part per result part.
func ToolResult(res runtime.Result) *schema.ToolResult {
	out := &schema.ToolResult{}
	if text := parttext.Content(res); text != "" {
		out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: text})
	}
	for _, p := range res.Parts {
		data, mime, binary := parttext.Binary(p)
		if !binary {
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeText, Text: parttext.AsText(p, "eino")})
			continue
		}
		b64 := parttext.Base64(data)
		common := schema.MessagePartCommon{Base64Data: &b64, MIMEType: mime}
		switch p.Kind {
		case runtime.PartImage:
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeImage, Image: &schema.ToolOutputImage{MessagePartCommon: common}})
		case runtime.PartAudio:
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeAudio, Audio: &schema.ToolOutputAudio{MessagePartCommon: common}})
		default:
			out.Parts = append(out.Parts, schema.ToolOutputPart{Type: schema.ToolPartTypeFile, File: &schema.ToolOutputFile{MessagePartCommon: common}})
		}
	}
	return out
}

// invoke runs the call, mapping approval to eino's interrupt and resume: a //tool:confirm
// call that nobody decided interrupts the run with an Approval; resumed with a
// runtime.Decision, the same call is invoked again and the decision is the registry's answer.
// A resume without a decision denies the call: approval fails closed.
func (c *core) invoke(ctx context.Context, args string) (runtime.Result, error) {
	call := runtime.Call{ID: compose.GetToolCallID(ctx), Name: c.info.Name, Args: []byte(args)}
	if c.opts.Session != nil {
		call.Session = c.opts.Session(ctx)
	} else if v, ok := adk.GetSessionValue(ctx, SessionKey); ok {
		call.Session, _ = v.(string)
	}
	if c.opts.UserData != nil {
		call.UserData = c.opts.UserData(ctx)
	}

	if was, _, prev := tool.GetInterruptState[*Approval](ctx); was && prev != nil {
		target, _, data := tool.GetResumeContext[any](ctx)
		if !target {
			// Another interrupt of the run was resumed: this one still waits.
			return runtime.Result{}, tool.StatefulInterrupt(ctx, prev, prev)
		}
		return pausedapproval.Resume(ctx, c.reg, call, prev, pausedapproval.DecisionOf(data))
	}
	res, asked := pausedapproval.Invoke(ctx, c.reg, call)
	if asked != nil {
		return runtime.Result{}, tool.StatefulInterrupt(ctx, asked, asked)
	}
	if res.ClientCall != nil {
		return pausedapproval.ClientRefused(call.Name), nil
	}
	return res, nil
}
