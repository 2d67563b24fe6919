package runtime

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"time"

	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Tool is one tool as the generated code declares it: what the model is told, the policies
// the registry applies, and the function that binds raw arguments to the handler.
//
// Tools are plain values; the generated Tools() (or the method r.Tools() of a handler receiver) returns them and
// Registry.Add takes them. Slices and maps in a Tool are not copied by the registry: treat a
// Tool as immutable once added.
type Tool struct {
	// Name is what the model calls the tool by, unique in a registry:
	// ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$ (OpenAI: at most 64 characters). toolgen derives it
	// from the handler name (snake_case) unless //tool:name sets it.
	Name string
	// DeclaredName is the name the tool's own toolkit gave it, when it is registered under
	// another (presets.Rename sets it): the name the texts of its toolkit's other tools know
	// it by, which ToolName maps to Name. "" when Name is that name.
	DeclaredName string
	// Origin is where the tool was declared, for error messages such as Registry.Add's
	// duplicate names: toolgen fills it with the Go package path and handler name
	// ("example.com/agent/search.Search").
	Origin string
	// Title is the human-readable title (MCP title), from //tool:title; empty by default.
	Title string
	// Description is what the model reads to choose the tool: the first sentence of the
	// handler's doc comment, or //tool:description; toolgen refuses a tool without one.
	Description string
	// Detail is the rest of the doc comment, served on request (level-2 detail); may be empty.
	Detail string
	// Tags, from //tool:tags, select tools with Registry.ByTag; nil by default.
	Tags []string
	// Category groups tools in listings (//tool:category); empty by default.
	Category string
	// Icons are images a user interface may show for the tool (MCP icons, //tool:icon): an
	// https URL, or an image file of the package embedded as a data: URI; nil by default.
	Icons []Icon

	// Timeout bounds one attempt (//tool:timeout); 0 means the registry default
	// (WithDefaultTimeout, else DefaultTimeout).
	Timeout time.Duration
	// NoTimeout disables the attempt timeout (//tool:timeout none); it wins over Timeout.
	NoTimeout bool
	// Retry is how failed attempts are retried (//tool:retry); the zero value means the
	// registry's WithDefaultRetry, which by default does not retry.
	Retry RetryPolicy

	// Permission says whether a call needs approval: toolgen sets PermissionConfirm for
	// //tool:confirm and PermissionAuto otherwise; a hand-written tool's zero value runs
	// without approval, as PermissionAuto.
	Permission Permission
	// ConfirmReason is shown to the approver with the request (//tool:confirm "reason").
	ConfirmReason string
	// Risk is the risk level shown to the approver (//tool:risk); empty means unrated.
	Risk Risk
	// Hints are the behaviour hints adapters pass on (MCP annotations), from //tool:hints;
	// the zero value claims nothing.
	Hints Hints

	// Examples are sample calls, from //tool:example, checked against InputSchema by toolgen
	// and shown to the model at level-2 detail.
	Examples []Example
	// Triggers are phrases saying when the tool fits (//tool:trigger), for tool search and
	// level-2 detail.
	Triggers []string
	// Prerequisites are conditions to meet before calling (//tool:prerequisite).
	Prerequisites []Prerequisite
	// Workflow lists the steps of the workflow the tool belongs to, in order (//tool:workflow).
	Workflow []WorkflowStep
	// Warnings are cautions shown with the tool's detail (//tool:warning).
	Warnings []string
	// Related names other tools and how they relate (//tool:related).
	Related []Related
	// Filters names the middleware registered with WithFilter that wrap this tool's calls,
	// in order (//tool:filters); Registry.Add rejects a name that is not registered.
	Filters []string
	// Metadata is free-form key-value data for the host (//tool:meta key value); nil by default.
	Metadata map[string]string

	// MaxResult caps the result text in bytes (//tool:maxresult); 0 means the registry
	// default (Limits.MaxResult, else DefaultMaxResult).
	MaxResult int64
	// MaxArgs limits the argument document in bytes (//tool:maxargs); 0 means the registry
	// default (Limits.MaxArgsBytes, else DefaultMaxArgsBytes).
	MaxArgs int64
	// MaxCalls is the most calls of this tool in one session (//tool:maxcalls); 0 means the
	// registry's LoopGuard.MaxCallsPerTool, which is unlimited unless set.
	MaxCalls int
	// ModelRetries is how often, per session, the tool may ask the model to retry (AskRetry),
	// from //tool:modelretries; 0 means the registry default (WithModelRetries, else
	// DefaultModelRetries).
	ModelRetries int
	// Sequential makes the tool run alone in a batch of parallel calls (//tool:sequential).
	Sequential bool
	// Task makes the tool run as an MCP task (//tool:task): runtime/mcp answers a call from a
	// client that declares the tasks extension with a task id and runs it in the background.
	// Elsewhere (Invoke, other adapters) it changes nothing.
	Task TaskMode
	// Client marks a tool declared here and executed by the caller (//tool:client): Invoke
	// binds its arguments and returns a ClientCall instead of running it.
	Client bool

	// Deferred marks a tool whose definition stays out of the model's context until a tool
	// search finds it (//tool:defer): adapters send it with defer_loading where the provider
	// searches, and runtime/toolsearch serves hosts that search themselves.
	Deferred bool
	// Namespace is the OpenAI tool-search namespace the tool is declared in (//tool:namespace).
	Namespace string
	// PackageDescription is what the tools of the tool's package are for together (its
	// //tool:description in the package doc comment): runtime/openai declares it as the
	// description of the tool's namespace, runtime/disclosure's catalog heads the package's
	// tools with it. "" when the package has none.
	PackageDescription string
	// Callers says who may call the tool (//tool:callers); the zero value leaves it to the
	// provider (direct calls only).
	Callers Callers
	// Scopes are the OAuth scopes (RFC 6749 §3.3 scope tokens) a caller must hold, every one,
	// to see and call the tool (//tool:scopes, or the host: runtime/mcp/mount's
	// Options.Scopes). A caller's scopes are its Grant (WithGrant): a caller without them is
	// not shown the tool (ToolsFor, tools/list, tool search, disclosure) and its call is
	// refused as a call of an unknown tool, so it cannot tell the tool exists. nil: every
	// caller may call it. Registry.Add refuses a scope that is not a scope token.
	Scopes []string

	// InputSchema is the JSON Schema (2020-12) of the arguments; OutputSchema that of a
	// structured result, or nil.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Variants holds the input schema converted for each provider, keyed by runtime/variant's
	// constants, for a hand-written tool that brings its own. Read variants with Tool.Variant,
	// which prefers these and derives the Dialects from InputSchema otherwise.
	Variants map[string]variant.Variant
	// Dialects lists the runtime/variant keys Tool.Variant derives from InputSchema, on first
	// use, when Variants lacks them: generated code names those of the providers it was
	// generated for (toolgen -providers) instead of carrying every variant as a literal. The
	// derivation is the one toolgen checked the schema with when it generated the code.
	Dialects []string

	// Bind, for a tool written by hand, decodes and validates raw JSON arguments. On success
	// it returns a call ready to run; on invalid arguments it returns an *ArgsError listing
	// every problem. Generated tools leave it nil: they carry a binding the registry uses
	// (runtime/toolimpl), and a Bind set on one replaces it. Call Tool.BindArgs to bind a
	// tool's arguments whichever it has.
	Bind func(ctx context.Context, args []byte) (BoundCall, error)

	// binding is a generated tool's binding (runtime/toolimpl.SetBinding).
	binding *toolBinding
}

// BoundCall is a tool call whose arguments have been decoded and validated. The registry runs
// it (perhaps several times, when retrying) after its policies allow it.
type BoundCall interface {
	// Args returns the decoded arguments (a pointer to the args struct, or nil for a tool
	// without arguments).
	Args() any
	// Run calls the handler once and turns what it returns into a Result.
	Run(ctx context.Context) Result
}

// Callers says who may call a tool: the model's own tool calls (Direct) and code the model
// runs (Code: OpenAI programmatic calling, Anthropic code execution). Adapters send it as
// allowed_callers.
type Callers struct {
	Direct bool
	Code   bool
}

// RetryPolicy is a tool's //tool:retry policy. Max is the number of retries after the first
// attempt; zero means no retry.
type RetryPolicy struct {
	Max      int
	Delay    time.Duration
	Backoff  float64
	MaxDelay time.Duration
}

// Permission says whether a tool runs on its own or needs approval.
type Permission string

const (
	PermissionAuto    Permission = "auto"
	PermissionConfirm Permission = "confirm"
)

// Risk is the risk level shown to whoever approves a call.
type Risk string

const (
	RiskLow    Risk = "low"
	RiskMedium Risk = "medium"
	RiskHigh   Risk = "high"
)

// Icon is an image for a tool, as MCP (2025-11-25) lists it: Src is an https URL or a data:
// URI; MIMEType, Sizes ("48x48", or "any" for a scalable image) and Theme ("light" or "dark":
// the background it is drawn for) are optional.
//
//	runtime.Icon{Src: "https://example.com/close.png", MIMEType: "image/png", Sizes: []string{"48x48"}}
type Icon struct {
	Src      string
	MIMEType string
	Sizes    []string
	Theme    string
}

// Hints are behaviour hints, sent as MCP tool annotations.
type Hints struct {
	ReadOnly    bool
	Idempotent  bool
	Destructive bool
	OpenWorld   bool
}

// Example is an example call, validated against the schema when the code was generated.
type Example struct {
	Scenario string
	Args     json.RawMessage
	Expected string
}

// Prerequisite is what must hold before a call: the condition, optionally the tool that
// checks it and what to do when it does not hold.
type Prerequisite struct {
	Condition string `json:"condition"`
	Check     string `json:"check,omitempty"`
	Else      string `json:"else,omitempty"`
}

// String reads as one sentence for a model: "the order exists (check with get_order; if
// not, create it with create_order)".
func (p Prerequisite) String() string {
	var notes []string
	if p.Check != "" {
		notes = append(notes, "check with "+p.Check)
	}
	if p.Else != "" {
		notes = append(notes, "if not, "+p.Else)
	}
	if len(notes) == 0 {
		return p.Condition
	}
	return p.Condition + " (" + strings.Join(notes, "; ") + ")"
}

// ModelDescription is the description every adapter sends to a provider or MCP client:
// Description, then each of Warnings as a line "Warning: …", so that a caution reaches the
// model where it reads about the tool even without level-2 detail.
//
//	t := runtime.Tool{Description: "Deletes a file.", Warnings: []string{"It cannot be undone."}}
//	t.ModelDescription() // "Deletes a file.\n\nWarning: It cannot be undone."
func (t Tool) ModelDescription() string {
	if len(t.Warnings) == 0 {
		return t.Description
	}
	var b strings.Builder
	b.WriteString(strings.TrimSpace(t.Description))
	for i, w := range t.Warnings {
		switch {
		case i > 0:
			b.WriteByte('\n')
		case b.Len() > 0:
			b.WriteString("\n\n")
		}
		b.WriteString("Warning: ")
		b.WriteString(strings.Join(strings.Fields(w), " "))
	}
	return b.String()
}

// Variant returns the input schema of t as the provider dialect key names (a runtime/variant
// constant) must receive it: t.Variants[key] when present, else, when t.Dialects names key,
// the variant derived from t.InputSchema (variant.Derive, kept after its first use). ok is
// false when t has no such variant (an adapter then refuses the tool, naming the provider it
// lacks). The variant's slices are shared: treat it as read-only, like the rest of a Tool.
func (t Tool) Variant(key string) (v variant.Variant, ok bool) {
	if v, ok := t.Variants[key]; ok {
		return v, true
	}
	if !slices.Contains(t.Dialects, key) {
		return variant.Variant{}, false
	}
	return variant.Derive(t.InputSchema, key)
}

// WorkflowStep is one step of a workflow: what it does, optionally the tool that does it and
// when it applies. A step read from a spec may name only its tool.
type WorkflowStep struct {
	Name      string `json:"name"`
	Tool      string `json:"tool,omitempty"`
	Condition string `json:"condition,omitempty"`
}

// String reads as one sentence for a model: "find the user (call find_user), when only the
// name is known".
func (s WorkflowStep) String() string {
	text := s.Name
	switch {
	case s.Tool != "" && text == "":
		text = "call " + s.Tool
	case s.Tool != "":
		text += " (call " + s.Tool + ")"
	}
	if s.Condition != "" {
		text += ", when " + s.Condition
	}
	return text
}

// Related names another tool and how it relates to this one.
type Related struct {
	Name     string
	Relation string
}

// TaskMode is how a tool runs as an MCP task (Tool.Task, //tool:task).
type TaskMode uint8

const (
	// TaskNone: the tool is always answered synchronously.
	TaskNone TaskMode = iota
	// TaskOptional: a task for a client that declares the MCP tasks extension, a synchronous
	// result for one that does not.
	TaskOptional
	// TaskRequired: a task, and a client that does not declare the extension is refused with
	// a MissingRequiredClientCapability error (-32021).
	TaskRequired
)
