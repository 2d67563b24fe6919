package runtime

import (
	"context"
	"encoding/json"
	"time"
)

// Tool is one tool as the generated code declares it: what the model is told, the policies
// the registry applies, and the function that binds raw arguments to the handler.
//
// Tools are plain values; the generated Tools() (or <Receiver>Tools(r)) returns them and
// Registry.Add takes them. Slices and maps in a Tool are not copied by the registry: treat a
// Tool as immutable once added.
type Tool struct {
	Name        string // ^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$
	Title       string // human-readable title (MCP title)
	Description string // what the model reads to choose the tool
	Detail      string // level-2 detail: the rest of the doc comment
	Tags        []string
	Category    string

	// Timeout bounds one attempt; 0 means the registry default, NoTimeout disables it.
	Timeout   time.Duration
	NoTimeout bool
	Retry     RetryPolicy

	Permission    Permission
	ConfirmReason string
	Risk          Risk
	Hints         Hints

	Examples      []Example
	Triggers      []string
	Prerequisites []string
	Warnings      []string
	Related       []Related
	Filters       []string
	Metadata      map[string]string

	MaxResult    int64 // result size cap in bytes; 0 means the registry default
	MaxArgs      int64 // argument document size limit in bytes; 0 means the registry default
	MaxCalls     int   // most calls in one session; 0 means no limit
	ModelRetries int   // how often the tool may ask the model to retry
	Sequential   bool  // runs alone in a batch of parallel calls
	Client       bool  // declared here, executed by the caller

	// InputSchema is the JSON Schema (2020-12) of the arguments; OutputSchema that of a
	// structured result, or nil.
	InputSchema  json.RawMessage
	OutputSchema json.RawMessage
	// Variants holds the input schema converted for each provider, keyed by the Variant*
	// constants; generated code precomputes them so that nothing is converted at run time.
	Variants map[string]Variant

	// Bind decodes and validates raw JSON arguments in one pass. On success it returns a call
	// ready to run; on invalid arguments it returns an *ArgsError listing every problem.
	Bind func(ctx context.Context, args []byte) (BoundCall, error)
	// NewCall, when set, allocates a call that the registry binds itself, with room for the
	// registry's per-call state: a call through the registry then allocates no more than one
	// through Bind. Generated code sets it; a hand-written Tool may leave it nil.
	NewCall func() UnboundCall
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

// Related names another tool and how it relates to this one.
type Related struct {
	Name     string
	Relation string
}
