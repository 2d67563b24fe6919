// Package subagent lets a model delegate a self-contained piece of work to a sub-agent:
// task {description, prompt, agent}, and call_subagent, the same tool under the XML agent's
// name.
//
// The toolkit embeds no model loop. The host provides a [Runner], which runs the sub-agent
// (its own model, system prompt and loop) and returns its final answer; the model that
// delegated reads that answer as the tool's result. Each call:
//
//  1. validates: the agent must be one of [Toolkit.Agents] (else the error lists them, with
//     their descriptions, so the model can pick again), and the delegation depth must be
//     under [Toolkit.MaxDepth];
//  2. routes: the runner gets a [Request] with the agent, the prompt, the sub-agent's own
//     tools (a runtime.Registry.Subset of [Toolkit.Tools] holding only [Agent.Tools]), a
//     session of its own, and a ctx one level deeper ([Depth]);
//  3. answers with the runner's text, and gives the host a [Route] effect saying which agent
//     ran (also reported to the registry's observer).
//
// The depth travels in ctx: the runner must pass the ctx it gets to the sub-agent's tool
// calls (Registry.Invoke, an adapter's Dispatch), so that a sub-agent that can itself call
// task is refused once the limit is reached. The default limit, 1, lets the top agent
// delegate and sub-agents not.
//
// A call without a prompt (the XML agent's handoff form: only the agent's name) hands the
// conversation to that agent through [Toolkit.Handoff] instead, and is refused when the host
// sets none.
//
// The alias call_subagent is a second tool with the same arguments and handler; a host that
// wants one name leaves the other out. [Toolkit.Catalog] describes the agents for a system
// prompt.
package subagent

//go:generate go tool toolgen

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Agent is a sub-agent the model may delegate to.
type Agent struct {
	Name        string   // what the model passes as agent
	Description string   // what it is good at, shown to the model
	Tools       []string // the names of the tools it may use, from Toolkit.Tools
}

// Request is one delegation, for the Runner.
type Request struct {
	Agent       Agent
	Description string // the model's short name for the task
	Prompt      string // the task, as the model wrote it for the sub-agent
	// Tools holds the sub-agent's tools and nothing else: give the sub-agent's model these
	// and dispatch its calls here, with the Run ctx.
	Tools *runtime.Registry
	// Session is the sub-agent's own session (the parent's, the agent and the call id), so
	// its todo list and limits are its own.
	Session string
	Depth   int // 1 for a sub-agent of the top agent
}

// Runner runs a sub-agent to its final answer. It must honour ctx and pass it on to the
// sub-agent's tool calls.
type Runner interface {
	Run(ctx context.Context, req Request) (string, error)
}

// RunnerFunc adapts a function to Runner.
type RunnerFunc func(ctx context.Context, req Request) (string, error)

// Run calls f.
func (f RunnerFunc) Run(ctx context.Context, req Request) (string, error) { return f(ctx, req) }

// Route is the effect of a delegation that ran: which agent, at what depth.
type Route struct {
	Agent       string
	Description string
	Depth       int
	Session     string // the sub-agent's session
}

// EffectName is "subagent_route".
func (Route) EffectName() string { return "subagent_route" }

// Toolkit holds the agents and how to run them.
type Toolkit struct {
	Agents []Agent
	Runner Runner
	// Tools is the registry the sub-agents' tools come from; nil gives every agent no tools.
	Tools *runtime.Registry
	// MaxDepth is the deepest delegation allowed: 0 means 1 (sub-agents cannot delegate).
	MaxDepth int
	// Handoff, when set, takes a call without a prompt (the XML agent's handoff form, only
	// agent_name): the named agent takes over the conversation, which the host arranges here
	// (the call's result also carries the Handoff effect). nil: such a call is refused and the
	// model asked for a prompt, so a handoff never silently does nothing.
	Handoff func(ctx context.Context, h Handoff) error
}

// Handoff is the effect of a call that handed the conversation to another agent rather than
// running it as a sub-agent.
type Handoff struct {
	Agent       string
	Description string // the model's reason, when it gave one
}

// EffectName is "subagent_handoff".
func (Handoff) EffectName() string { return "subagent_handoff" }

type depthKey struct{}

// Depth returns how deep in delegations ctx is: 0 for the top agent.
func Depth(ctx context.Context) int {
	d, _ := ctx.Value(depthKey{}).(int)
	return d
}

// WithDepth returns ctx at delegation depth d, for a host that starts agents itself.
func WithDepth(ctx context.Context, d int) context.Context {
	return context.WithValue(ctx, depthKey{}, d)
}

// TaskArgs are the arguments of task and call_subagent.
type TaskArgs struct {
	// Description is a short name for the task, 3 to 10 words, e.g. "Find the flaky test".
	Description string `json:"description,omitempty" tool:"default='',maxLength=200"`
	// Prompt is the whole task for the sub-agent, with every fact it needs: it sees nothing
	// of this conversation. Without a prompt the call hands the conversation to the agent
	// instead, where the host allows handoffs.
	Prompt string `json:"prompt,omitempty" tool:"default='',maxLength=20000"`
	// Agent is the name of the sub-agent to run.
	Agent string `json:"agent" tool:"minLength=1,maxLength=64"`
}

// Task hands a self-contained task to a sub-agent and returns its final answer.
//
// Use it for work that needs many steps of its own (research, a search through many files)
// so that only the answer comes back into this conversation. A call with an unknown agent
// is answered with the list of agents.
//
//tool:name task
//tool:timeout 30m
//tool:example "Delegate research" {"description":"Survey HTML-to-Markdown libraries","prompt":"List maintained Go libraries that convert HTML to Markdown, with their licences.","agent":"researcher"}
func (k *Toolkit) Task(ctx context.Context, args TaskArgs) (runtime.Result, error) {
	i := slices.IndexFunc(k.Agents, func(a Agent) bool { return a.Name == args.Agent })
	if i < 0 {
		return runtime.Result{}, runtime.ModelErrorf(runtime.KindNotFound, "unknown agent %q. %s", args.Agent, k.Catalog())
	}
	agent := k.Agents[i]
	if args.Prompt == "" {
		return k.handoff(ctx, agent, args)
	}
	depth := Depth(ctx) + 1
	if limit := cmp.Or(k.MaxDepth, 1); depth > limit {
		return runtime.Result{}, runtime.ModelErrorf(runtime.KindLimit,
			"sub-agents may be nested %d deep at most, and this call would be %d deep: do the task yourself", limit, depth)
	}
	tools, err := k.toolsOf(agent)
	if err != nil {
		return runtime.Result{}, err
	}
	info, _ := runtime.CallInfoFrom(ctx)
	req := Request{Agent: agent, Description: args.Description, Prompt: args.Prompt, Tools: tools,
		Session: info.Session + "/" + agent.Name + "/" + info.CallID, Depth: depth}
	if k.Runner == nil {
		return runtime.Result{}, runtime.Permanent(runtime.ModelErrorf(runtime.KindUnavailable, "sub-agents cannot run here: do the task yourself"))
	}
	answer, err := k.Runner.Run(WithDepth(ctx, depth), req)
	if err != nil {
		return runtime.Result{}, fmt.Errorf("sub-agent %s failed: %w", agent.Name, err)
	}
	route := Route{Agent: agent.Name, Description: args.Description, Depth: depth, Session: req.Session}
	return runtime.Result{Text: answer, Effects: []runtime.Effect{route}}, nil
}

// CallSubagent hands a self-contained task to a sub-agent and returns its final answer (the
// same tool as task).
//
//tool:name call_subagent
//tool:timeout 30m
//tool:example {"description":"Check the test suite","prompt":"Run the tests of package store and report failures.","agent":"tester"}
func (k *Toolkit) CallSubagent(ctx context.Context, args TaskArgs) (runtime.Result, error) {
	return k.Task(ctx, args)
}

// handoff hands the conversation to agent, through the host's Handoff.
func (k *Toolkit) handoff(ctx context.Context, agent Agent, args TaskArgs) (runtime.Result, error) {
	if k.Handoff == nil {
		return runtime.Result{}, runtime.ModelErrorf(runtime.KindInvalidInput,
			"agent %s cannot take over the conversation here: give a prompt (the whole task) to run it as a sub-agent", agent.Name)
	}
	h := Handoff{Agent: agent.Name, Description: args.Description}
	if err := k.Handoff(ctx, h); err != nil {
		return runtime.Result{}, fmt.Errorf("handing off to %s failed: %w", agent.Name, err)
	}
	return runtime.Result{Text: "Handed off to " + agent.Name + ": it continues the conversation.", Effects: []runtime.Effect{h}}, nil
}

// Catalog describes the agents for the model: "Available agents: name: description; …".
func (k *Toolkit) Catalog() string {
	if len(k.Agents) == 0 {
		return "No agents are available."
	}
	var b strings.Builder
	b.WriteString("Available agents:")
	for _, a := range k.Agents {
		fmt.Fprintf(&b, "\n- %s: %s", a.Name, a.Description)
	}
	return b.String()
}

// toolsOf returns the registry of the agent's tools.
func (k *Toolkit) toolsOf(a Agent) (*runtime.Registry, error) {
	if k.Tools == nil {
		if len(a.Tools) > 0 {
			return nil, fmt.Errorf("sub-agent %s is configured with tools but the toolkit has no registry", a.Name)
		}
		return runtime.NewRegistry(), nil
	}
	sub, err := k.Tools.Subset(a.Tools...)
	if err != nil {
		return nil, fmt.Errorf("sub-agent %s is misconfigured: %w", a.Name, err)
	}
	return sub, nil
}
