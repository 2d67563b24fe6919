package annotations

import "time"

// Placements shared by several directives.
const (
	onHandler     = OnFunc | OnMethod          // execution policies: only a handler runs
	onDescriptive = OnFunc | OnMethod | OnType // what describes a tool, client tools included
)

// Retry defaults, applied to the settings a //tool:retry line leaves out.
const (
	DefaultRetryMax      = 3
	DefaultRetryDelay    = time.Second
	DefaultRetryBackoff  = 2.0
	DefaultRetryMaxDelay = 30 * time.Second
)

// Directives is the registry of every //tool: directive, in the order of the DESIGN.md table.
// The parser, Help and Markdown all read it; nothing else lists directives.
var Directives = []*Directive{
	{
		Name: "name", Targets: onDescriptive, Syntax: "NAME",
		Help: "The tool name the model sees. The default is the Go name in snake_case " +
			"(GetWeather becomes get_weather). It must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$ " +
			"(up to 128 characters, as Anthropic, Gemini and MCP allow); OpenAI takes at most 64, " +
			"and toolgen warns about longer names when OpenAI is among the providers.",
		parse: parseNameOf("tool name"),
	},
	{
		Name: "title", Targets: onDescriptive, Syntax: "TEXT",
		Help:  "A human-readable title for user interfaces (MCP title).",
		parse: parseText,
	},
	{
		Name: "description", Targets: onDescriptive | OnPackage, Repeatable: true, Syntax: "TEXT",
		Help: "Replaces the first paragraph of the doc comment as the tool's description. " +
			"Several lines are joined with spaces. In the package doc comment it is the " +
			"package's description, what its tools are for together (runtime.Tool.PackageDescription): " +
			"the description of their OpenAI namespace, and their heading in disclosure's catalog.",
		parse: parseText,
	},
	{
		Name: "tags", Targets: onDescriptive | OnPackage, Syntax: "TAG[,TAG...]",
		Help: "Tags for grouping and filtering (Registry.ByTag), separated by commas or spaces; " +
			"each of letters, digits and _ . : -. In the package doc comment they are the " +
			"default tags of the package's tools that have none of their own.",
		parse: parseList("tag"),
	},
	{
		Name: "category", Targets: onDescriptive | OnPackage, Syntax: "NAME",
		Help: "One category, for grouping tools in a catalog. In the package doc comment it is " +
			"the default of the package's tools.",
		parse: parseText,
	},
	{
		Name: "icon", Targets: onDescriptive, Repeatable: true, Syntax: "FILE|URL [SIZE...] [theme=light|dark] [mime=TYPE]",
		Help: "An image a user interface may show for the tool (MCP icons): a file of the package, " +
			"relative to the source file and inside its directory (icons/close.svg), embedded as a data: URI when the " +
			"code is generated, at most 64 KiB; or an https URL or a data: URI. The type comes from the file's " +
			"extension, checked against its content (PNG, JPEG, SVG, WebP, GIF), or mime=. Sizes are " +
			"WIDTHxHEIGHT or any; theme= says which background it is drawn for. Repeat it for several sizes or themes.",
		parse: parseIcon,
	},
	{
		Name: "timeout", Targets: onHandler, Syntax: "DURATION|none",
		Help: "The time limit of one call attempt, in Go duration syntax (10s, 1m30s, 500ms). " +
			"Without it the registry default applies (30s); none disables the limit.",
		parse: parseTimeout,
	},
	{
		Name: "retry", Targets: onHandler, optionalArgs: true,
		Syntax: "[max=N] [delay=DURATION] [backoff=FACTOR] [maxdelay=DURATION]",
		Help: "Retries a call whose handler failed or timed out, waiting delay before the first " +
			"retry and multiplying the wait by backoff each time, up to maxdelay. max is the " +
			"number of retries after the first attempt. Omitted settings default to max=3 " +
			"delay=1s backoff=2 maxdelay=30s. Invalid arguments and errors marked permanent " +
			"are never retried.",
		parse: parseRetry,
	},
	{
		Name: "confirm", Targets: onHandler, optionalArgs: true, Syntax: "[REASON]",
		Help: "The tool needs approval before it runs (permission \"confirm\" instead of " +
			"\"auto\"); the optional reason is shown to whoever approves.",
		parse: parseConfirm,
	},
	{
		Name: "risk", Targets: onHandler, Syntax: "low|medium|high",
		Help:  "The risk level shown to whoever approves a call.",
		parse: parseRisk,
	},
	{
		Name: "hints", Targets: onDescriptive, Syntax: "HINT[,HINT...]",
		Help: "Behaviour hints (MCP tool annotations), separated by commas or spaces: readonly " +
			"(changes nothing), idempotent (repeating a call has no further effect), " +
			"destructive (may delete or overwrite), openworld (reaches outside systems).",
		parse: parseHints,
	},
	{
		Name: "example", Targets: onDescriptive, Repeatable: true,
		Syntax: `["SCENARIO"] JSON [=> EXPECTED]`,
		Help: "An example call: an optional Go-quoted scenario, the JSON arguments, and after " +
			"=> an optional description of the expected result. The JSON must validate " +
			"against the tool's schema when the code is generated.",
		parse: parseExample,
	},
	{
		Name: "trigger", Targets: onDescriptive, Repeatable: true, Syntax: "TEXT",
		Help:  "When to use the tool (level-2 guidance for the model).",
		parse: parseText,
	},
	{
		Name: "prerequisite", Targets: onDescriptive, Repeatable: true, Syntax: "CONDITION [| check TOOL] [| else ACTION]",
		Help: "What must hold before calling the tool (level-2 guidance), optionally with the tool that checks it " +
			"and what to do when it does not hold: `//tool:prerequisite the order exists | check get_order | else create it with create_order`. " +
			"TOOL must be a tool of the same package.",
		parse: parsePrerequisite,
	},
	{
		Name: "workflow", Targets: onDescriptive, Repeatable: true, Syntax: "STEP [| tool TOOL] [| when CONDITION]",
		Help: "One step of the workflow the tool belongs to, optionally with the tool that does it and " +
			"when it applies; the lines are the steps in order " +
			"(`//tool:workflow find the user | tool find_user | when only the name is known`). " +
			"TOOL must be a tool of the same package. Shown to the model at level 2 as a numbered list.",
		parse: parseWorkflowStep,
	},
	{
		Name: "warning", Targets: onDescriptive, Repeatable: true, Syntax: "TEXT",
		Help:  "A caution for the model about using the tool (level-2 guidance).",
		parse: parseText,
	},
	{
		Name: "related", Targets: onDescriptive, Repeatable: true, Syntax: "NAME [RELATION]",
		Help: "A related tool and, optionally, how it relates (\"use first\", \"undoes this\"). " +
			"NAME must be a tool of the same package (the same generated catalog).",
		parse: parseRelated,
	},
	{
		Name: "filters", Targets: onHandler, Syntax: "FILTER[,FILTER...]",
		Help: "Named middleware the registry applies to this tool, separated by commas or " +
			"spaces, in order.",
		parse: parseList("filter"),
	},
	{
		Name: "meta", Targets: onDescriptive, Repeatable: true, Syntax: "KEY=VALUE",
		Help: "Free metadata carried in the tool definition; the key is of letters, digits and " +
			"_ . -, and keys are unique per tool.",
		parse: parseMeta,
	},
	{
		Name: "maxresult", Targets: onHandler, Syntax: "SIZE",
		Help: "The largest result, in bytes, the model receives directly (4096, 512B, 4KB = " +
			"4000, 4KiB = 4096, MB, MiB, GB, GiB); larger results go to the registry's offloader.",
		parse: parseSize,
	},
	{
		Name: "maxargs", Targets: onHandler, Syntax: "SIZE",
		Help: "The largest argument document, in bytes, the tool accepts (units as for maxresult); " +
			"a larger call is refused before it is decoded. Without it the registry's limit applies " +
			"(runtime.Limits.MaxArgsBytes, 1 MiB by default).",
		parse: parseSize,
	},
	{
		Name: "maxcalls", Targets: onHandler, Syntax: "N",
		Help:  "The most calls of this tool in one session (at least 1).",
		parse: parseCount,
	},
	{
		Name: "modelretries", Targets: onHandler, Syntax: "N",
		Help: "How many times the tool may ask the model to correct its call and retry " +
			"(runtime.AskRetry); at least 1.",
		parse: parseCount,
	},
	{
		Name: "sequential", Targets: onHandler, noArgs: true,
		Help: "In a batch of parallel calls this tool runs alone: calls before it finish " +
			"first, calls after it wait.",
	},
	{
		Name: "task", Targets: onHandler, optionalArgs: true, Syntax: "[required]",
		Help: "Over MCP (protocol 2026-07-28, the io.modelcontextprotocol/tasks extension) a call " +
			"runs as a task: the client gets a task id at once and polls tasks/get for the result, " +
			"while the registry's policies (approval, timeout, retries) apply as to any call. A " +
			"client that does not declare the extension gets the result synchronously; with " +
			"required it is refused instead (-32021). Elsewhere the tool runs as any other.",
		parse: parseTask,
	},
	{
		Name: "lint", Targets: onDescriptive | OnPackage, Syntax: "[-]RULE[,[-]RULE...]",
		Help: "Turns authoring rules off (-RULE) or back on (RULE) for this tool, or in the package doc comment " +
			"for every tool of the package. Rules report warnings (errors under -strict); see the list of rules.",
		parse: parseLint,
	},
	{
		Name: "defer", Targets: onDescriptive | OnPackage, optionalArgs: true, Syntax: "[off]",
		Help: "Deferred loading: the tool's definition is left out of the model's context until " +
			"a tool search finds it (OpenAI and Anthropic defer_loading; runtime/toolsearch for " +
			"every other host). In the package doc comment it is the default of the package's " +
			"tools; a tool opts out with //tool:defer off.",
		parse: parseDefer,
	},
	{
		Name: "namespace", Targets: onDescriptive | OnPackage, Syntax: "NAME",
		Help: "The OpenAI tool-search namespace the tool is declared in (OpenAI advises fewer " +
			"than 10 functions per namespace). In the package doc comment it is the default of " +
			"the package's tools.",
		parse: parseNameOf("namespace"),
	},
	{
		Name: "callers", Targets: onDescriptive | OnPackage, Syntax: "CALLER[,CALLER...]",
		Help: "Who may call the tool: direct (the model's own tool calls) and code (code the " +
			"model runs: OpenAI programmatic calling, Anthropic code execution). Sent as " +
			"allowed_callers; without it the provider's default applies (direct calls only).",
		parse: parseCallers,
	},
	{
		Name: "scopes", Targets: onHandler, Syntax: "SCOPE[ SCOPE...]",
		Help: "The OAuth scopes (RFC 6749 section 3.3 scope tokens, separated by spaces) a caller must hold, " +
			"every one of them, to see and call the tool: a caller without them is not shown the tool " +
			"(tools/list, tool search, disclosure, provider declarations) and its call is refused as a call " +
			"of an unknown tool. A scope token is printable ASCII but space, \" and \\ (repo:write, " +
			"https://example.com/auth/admin). Without it every caller may call the tool.",
		parse: parseScopes,
	},
	{
		Name: "tests", Targets: OnPackage, noArgs: true,
		Help: "In the package doc comment: toolgen also writes tools_gen_test.go, generated tests " +
			"of the package's tools (as toolgen -tests does): each tool's //tool:example calls with " +
			"an => EXPECTED result run and compared with it, and a fuzz target per tool " +
			"(FuzzToolName) seeded from its examples and from calls derived from its schema. " +
			"toolgen -check keeps the file fresh like tools_gen.go.",
	},
	{
		Name: "prompt", Targets: onHandler, noArgs: true,
		Help: "Serves the handler as an MCP prompt instead of a tool: it goes into the generated " +
			"Prompts() (runtime/mcp WithPrompts), not Tools(). Its args struct gives the prompt's " +
			"arguments (descriptions from the fields' comments, required as for a tool, enum types " +
			"completed from their constants); its result becomes the prompt's messages.",
	},
	{
		Name: "resource", Targets: onHandler, Syntax: "URI [mime=TYPE]",
		Help: "Serves the handler as an MCP resource instead of a tool: it goes into the generated " +
			"Resources() (runtime/mcp WithResources), not Tools(). A URI with {variables} (RFC 6570) " +
			"is a resource template: each variable is a field of the args struct (by its JSON name), " +
			"and every required field is a variable. mime= is the MIME type of what it returns.",
		parse: parseResource,
	},
	{
		Name: "defs", Targets: OnType, noArgs: true,
		Help: "On a named struct type: its schema goes under $defs and every use refers to it with " +
			"$ref, even where it is used once (toolgen inlines it otherwise). Provider variants " +
			"that cannot hold $ref inline it again. On another type or an alias it is an error. " +
			"A toolgen -client client names the type after it.",
	},
	{
		Name: "client", Targets: OnType, noArgs: true,
		Help: "On a type declaration: declares a client-side tool whose arguments are that " +
			"struct type. toolgen emits its schema and provider definitions; the caller " +
			"executes it.",
	},
}

// Timeout is the value of //tool:timeout.
type Timeout struct {
	Duration time.Duration // > 0 unless None
	None     bool          // //tool:timeout none: no time limit
}

// Retry is the value of //tool:retry, defaults filled in.
type Retry struct {
	Max      int           // retries after the first attempt, >= 1
	Delay    time.Duration // wait before the first retry, > 0
	Backoff  float64       // factor applied to the wait after each retry, >= 1
	MaxDelay time.Duration // longest wait, >= Delay
}

// Defer is the value of //tool:defer.
type Defer struct {
	Off bool // //tool:defer off: not deferred, whatever the package default
}

// Callers is the value of //tool:callers.
type Callers struct {
	Direct bool // the model's own tool calls
	Code   bool // calls from code the model runs (programmatic calling, code execution)
}

// Confirm is the value of //tool:confirm.
type Confirm struct {
	Reason string // may be empty
}

// Task is the value of //tool:task.
type Task struct {
	Required bool // //tool:task required: a client without the tasks extension is refused
}

// Hints is the value of //tool:hints. Contradictions (readonly with destructive) are left to
// the check phase, which sees all of a tool's directives.
type Hints struct {
	ReadOnly    bool
	Idempotent  bool
	Destructive bool
	OpenWorld   bool
}

// Example is the value of //tool:example.
type Example struct {
	Scenario string // unquoted; may be empty
	JSON     string // the JSON arguments as written, syntactically valid
	Expected string // the text after =>; may be empty
	// JSONOffset is the byte offset of JSON in the comment text, so that schema errors found
	// later can point at the arguments.
	JSONOffset int
}

// Related is the value of //tool:related.
type Related struct {
	Name     string // a tool name
	Relation string // free text; may be empty
}

// Prerequisite is the value of //tool:prerequisite.
type Prerequisite struct {
	Condition string // what must hold
	Check     string // a tool that checks it; may be empty
	Else      string // what to do when it does not hold; may be empty
	// CheckOffset is the byte offset of Check in the comment text, for errors found later.
	CheckOffset int
}

// WorkflowStep is the value of //tool:workflow.
type WorkflowStep struct {
	Name      string // what the step does
	Tool      string // the tool that does it; may be empty
	Condition string // when the step applies; may be empty
	// ToolOffset is the byte offset of Tool in the comment text, for errors found later.
	ToolOffset int
}

// LintSetting is one item of //tool:lint: a rule turned on or off.
type LintSetting struct {
	Rule string
	On   bool
}

// LintRule is an authoring rule: its finding is a warning, an error under -strict, and
// //tool:lint -NAME turns it off.
type LintRule struct {
	Name string
	Help string
}

// LintRules are the authoring rules toolgen checks, those of the OpenAkita tool specification.
var LintRules = []LintRule{
	{"snake-case", "Tool names are snake_case: lower-case letters, digits and underscores."},
	{"description-length", "The description (the doc comment's first paragraph) is at most 200 characters: models read it on every turn."},
	{"detail-length", "The detail (the doc comment's later paragraphs) is at most 2000 characters."},
	{"parameter-description", "Every parameter has a description (a doc or line comment on its field)."},
	{"optional-default", "Every optional scalar parameter (not a pointer) has a default=, so the model knows what leaving it out means."},
	{"category-prefix", "The tools of one category share a name prefix, the first word of their names (browser_open, browser_click in browser), so the model tells the family by its names."},
	{"what-and-when", "Off unless turned on (//tool:lint what-and-when): the description says WHAT the tool does (its first word a verb: Gets, Reads) and WHEN to use it (a when, if, before, after, once, unless or \"use it\" in the description or detail, or a //tool:trigger). A heuristic: it reads words, not meaning."},
	{"description-fields", "The description holds no \"When you need to …\" and no \"PREREQUISITE\": when to use the tool goes in //tool:trigger, what must hold first in //tool:prerequisite, where the model reads them as such."},
}

// Meta is the value of //tool:meta.
type Meta struct {
	Key   string
	Value string
}

// Resource is the value of //tool:resource.
type Resource struct {
	URI      string // a URI, or an RFC 6570 template with {variables}
	MIMEType string // may be empty
}
