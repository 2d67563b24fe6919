// Package langchaingo runs a toolgen registry's tools in LangChainGo agents
// (github.com/tmc/langchaingo): each tool becomes a tools.Tool whose Call goes through
// Registry.Invoke, so validation with every problem's JSON path, timeouts, retries, loop
// guards, repair and approval all hold inside agents.Executor.
//
//	ids := &toollangchaingo.CallIDs{}
//	tools, err := toollangchaingo.Tools(reg, toollangchaingo.Options{CallIDs: ids})
//	agent := agents.NewOpenAIFunctionsAgent(llm, tools)
//	executor := agents.NewExecutor(agent, agents.WithCallbacksHandler(ids))
//	answer, err := chains.Run(ctx, executor, "Weather in Tokyo?")
//
// # Schemas
//
// A LangChainGo tool has a name, a description and one string input: its agents declare no
// schema (the OpenAI functions agent declares every tool with a single string property,
// __arg1). So the description the model reads ends with the JSON Schema toolgen emitted for
// the arguments, and the tool takes the JSON object as its input, whether the model sends it
// wrapped in __arg1 or as the function's arguments.
//
// # Calls
//
// tools.Tool.Call receives no call id. The agent's call id reaches runtime.CallInfo when the
// executor's callbacks handler is a CallIDs (alone, or in a callbacks.CombiningHandler): it
// notes each action's ToolID just before the executor calls the tool, on the same ctx. The
// session is Options.Session's, UserData Options.UserData's.
//
// # Results
//
// LangChainGo tool outputs are one text with no error flag: a failed call's text starts with
// "Error" and is returned as the output, never as a Go error, which would end the executor's
// run; the model reads every problem and calls again. A result's parts are described in words.
//
// # Approval
//
// LangChainGo's executor has no way to pause for a person, so a //tool:confirm call is
// decided by the registry's own approver (runtime.WithApprover), or waits in its queue
// (runtime.WithApprovalQueue; the model reads that it waits), or is refused: approval fails
// closed. A client tool (//tool:client) has no one to run it and is refused.
//
// The package is its own Go module, so programs that do not import it never download
// LangChainGo.
package langchaingo

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/tmc/langchaingo/callbacks"
	"github.com/tmc/langchaingo/schema"
	"github.com/tmc/langchaingo/tools"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/parttext"
	"github.com/toolgen-go/toolgen/runtime/internal/pausedapproval"
)

// Options says how the tools fill the runtime.Call of each call.
type Options struct {
	// CallIDs, when it is also the executor's callbacks handler, gives each call the agent's
	// tool call id.
	CallIDs *CallIDs
	// Session returns the session (conversation) a call belongs to; nil sets none.
	Session func(ctx context.Context) string
	// UserData returns the runtime.Call.UserData of a call; nil sets none.
	UserData func(ctx context.Context) any
}

// Tool is a registry's tool as a LangChainGo tools.Tool.
type Tool struct {
	reg         *runtime.Registry
	name        string
	description string
	opts        Options
}

var _ tools.Tool = (*Tool)(nil)

// Tools returns the registry's tools named in names (all of them when names is empty), in
// name order, as LangChainGo tools. Each call goes through reg.Invoke. It fails when a name is
// not in the registry.
func Tools(reg *runtime.Registry, opts Options, names ...string) ([]tools.Tool, error) {
	var list []runtime.Tool
	if len(names) == 0 {
		list = reg.Tools()
	}
	for _, name := range names {
		t, ok := reg.Tool(name)
		if !ok {
			return nil, fmt.Errorf("langchaingo: no tool %q in the registry", name)
		}
		list = append(list, t)
	}
	out := make([]tools.Tool, len(list))
	for i, t := range list {
		out[i] = &Tool{reg: reg, name: t.Name, description: Description(t), opts: opts}
	}
	return out, nil
}

// Description is what the model reads about t: its description and warnings
// (runtime.Tool.ModelDescription), then the JSON Schema of the input, which LangChainGo's
// agents have no other way to send.
func Description(t runtime.Tool) string {
	if len(t.InputSchema) == 0 {
		return t.ModelDescription()
	}
	return strings.TrimSpace(t.ModelDescription()) + "\n\nInput: a JSON object matching this JSON Schema: " + string(t.InputSchema)
}

// Name returns the tool's name.
func (t *Tool) Name() string { return t.name }

// Description returns what the model reads about the tool (see the package function).
func (t *Tool) Description() string { return t.description }

// Call runs one call through the registry and returns what the model reads. It returns no
// error: a failure is a text starting with "Error".
func (t *Tool) Call(ctx context.Context, input string) (string, error) {
	call := runtime.Call{Name: t.name, Args: []byte(input)}
	if t.opts.CallIDs != nil {
		call.ID = t.opts.CallIDs.take(ctx, t.name)
	}
	if t.opts.Session != nil {
		call.Session = t.opts.Session(ctx)
	}
	if t.opts.UserData != nil {
		call.UserData = t.opts.UserData(ctx)
	}
	res := t.reg.Invoke(ctx, call)
	if res.ClientCall != nil {
		res = pausedapproval.ClientRefused(t.name)
	}
	return parttext.TextOnly(res, "LangChainGo"), nil
}

// CallIDs is a callbacks.Handler that hands each agent action's ToolID to the call the
// executor makes next on the same ctx: give it to agents.WithCallbacksHandler and to
// Options.CallIDs. The executor runs a turn's actions one after another, each right after
// its HandleAgentAction, so the id noted is the call's. It holds at most one id per running
// executor ctx, forgotten when the call takes it or the agent finishes.
type CallIDs struct {
	callbacks.SimpleHandler
	mu   sync.Mutex
	next map[context.Context]schema.AgentAction
}

var _ callbacks.Handler = (*CallIDs)(nil)

// HandleAgentAction notes the action's ToolID for the call that follows it.
func (c *CallIDs) HandleAgentAction(ctx context.Context, action schema.AgentAction) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.next == nil {
		c.next = make(map[context.Context]schema.AgentAction)
	}
	c.next[ctx] = action
}

// HandleAgentFinish forgets an id no call took (an action naming no tool).
func (c *CallIDs) HandleAgentFinish(ctx context.Context, _ schema.AgentFinish) {
	c.mu.Lock()
	defer c.mu.Unlock()
	delete(c.next, ctx)
}

// HandleChainError forgets an id no call took when the run fails.
func (c *CallIDs) HandleChainError(ctx context.Context, _ error) {
	c.HandleAgentFinish(ctx, schema.AgentFinish{})
}

// take returns the id noted for the call of tool on ctx, or "".
func (c *CallIDs) take(ctx context.Context, tool string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	a, ok := c.next[ctx]
	if !ok || !strings.EqualFold(a.Tool, tool) {
		return ""
	}
	delete(c.next, ctx)
	return a.ToolID
}
