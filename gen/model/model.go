// Package model is toolgen's intermediate representation: what the parse phase learns from a
// Go package and what the schema and emit phases render from it.
//
// The model holds no go/ast, go/types or jennifer values, only plain data with positions, so
// that each phase can be tested alone and a dump of the model separates parse bugs from emit
// bugs. Slices are kept in a deterministic order: tools by name, fields in declaration order,
// enum values in declaration order.
package model

import (
	"cmp"
	"fmt"
	"strings"
	"time"
)

// Position is a place in a source file. Filename is relative to the working directory when
// the diagnostics are printed; the model keeps what the loader gave.
type Position struct {
	Filename string
	Line     int
	Column   int
}

// String formats the position as file:line:col, like the go command.
func (p Position) String() string {
	if p.Filename == "" {
		return "-"
	}
	return fmt.Sprintf("%s:%d:%d", p.Filename, p.Line, p.Column)
}

// IsValid reports whether the position names a file.
func (p Position) IsValid() bool { return p.Filename != "" }

// Compare orders positions by file name, then line, then column: -1, 0 or +1 as p is before,
// at or after q.
func (p Position) Compare(q Position) int {
	return cmp.Or(strings.Compare(p.Filename, q.Filename), cmp.Compare(p.Line, q.Line), cmp.Compare(p.Column, q.Column))
}

// Package is one Go package that declares tools. The generated file goes into Dir.
type Package struct {
	Path string // import path
	Name string // package name
	Dir  string // directory holding the package's files
	// DefaultTags come from //tool:tags in the package doc comment; they apply to tools
	// without tags of their own.
	DefaultTags []string
	// DefaultDeferred, DefaultNamespace and DefaultCallers come from //tool:defer,
	// //tool:namespace and //tool:callers in the package doc comment; parse applies them to
	// the tools that say nothing of their own.
	DefaultDeferred  bool
	DefaultNamespace string
	DefaultCallers   Callers
	// Tests is set by //tool:tests in the package doc comment: the generated tests
	// (tools_gen_test.go) are written for the package whatever toolgen's -tests flag says.
	Tests bool
	// DefaultCategory comes from //tool:category in the package doc comment: the category of
	// the tools without one of their own.
	DefaultCategory string
	// Description is the package's //tool:description lines, joined: what its tools are for
	// together; parse gives it to every tool (Tool.PackageDescription).
	Description string
	// Lint holds the package's //tool:lint settings: rule name → on. Rules not listed are on.
	Lint  map[string]bool
	Tools []*Tool // sorted by Name
}

// Tool is one tool: a handler func or method, or a client tool declared on a type.
type Tool struct {
	Pos  Position // the func (or type) name
	Name string   // the tool name the model sees

	// Handler is the Go function behind the tool. For a client tool (Client) only Args is set.
	Handler Handler
	Client  bool

	Title       string
	Description string // first paragraph, or //tool:description
	Detail      string // the remaining paragraphs (level-2 disclosure)
	Tags        []string
	Category    string

	Timeout   time.Duration // 0: the registry default
	NoTimeout bool          // //tool:timeout none
	Retry     *Retry

	Confirm       bool
	ConfirmReason string
	Risk          string // "", "low", "medium", "high"
	Hints         Hints

	Examples      []Example
	Triggers      []string
	Prerequisites []Prerequisite
	Workflow      []WorkflowStep // steps, in order
	Warnings      []string
	Related       []Related
	Filters       []string
	Meta          []Meta // in source order; keys unique
	Icons         []Icon // //tool:icon, in source order; files already embedded

	// Lint holds the tool's //tool:lint settings, which override the package's.
	Lint map[string]bool

	MaxResult    int64 // bytes; 0: the registry default
	MaxArgs      int64 // bytes of the argument document; 0: the registry default
	MaxCalls     int
	ModelRetries int
	Sequential   bool
	Task         TaskMode // //tool:task: run as an MCP task

	Deferred  bool   // //tool:defer: left out of the model's context until a search finds it
	Namespace string // //tool:namespace: the OpenAI tool-search namespace
	// PackageDescription is the package's description (Package.Description).
	PackageDescription string
	Callers            Callers  // //tool:callers: who may call the tool; zero: the provider's default
	Scopes             []string // //tool:scopes: the OAuth scopes a caller needs, every one, in source order

	// Serve is what the handler is served as over MCP: a tool (""), a prompt (//tool:prompt)
	// or a resource (//tool:resource, with ResourceURI and ResourceMIME).
	Serve        ServeKind
	ResourceURI  string
	ResourceMIME string

	// Args is the argument struct type (Kind Struct), or nil for a handler without arguments,
	// whose schema is the empty object.
	Args *Type
	// Result is the structured result type, or nil when the result is text, a runtime.Result
	// or absent.
	Result *Type
}

// ServeKind is what a handler is served as: a tool, an MCP prompt or an MCP resource.
type ServeKind string

const (
	ServeTool     ServeKind = ""
	ServePrompt   ServeKind = "prompt"
	ServeResource ServeKind = "resource"
)

// Prerequisite is one //tool:prerequisite.
type Prerequisite struct {
	Condition string
	Check     string   // a tool of the package that checks the condition; may be empty
	CheckPos  Position // of Check
	Else      string   // what to do when it does not hold; may be empty
}

// WorkflowStep is one //tool:workflow.
type WorkflowStep struct {
	Name      string
	Tool      string   // a tool of the package that does the step; may be empty
	ToolPos   Position // of Tool
	Condition string   // when the step applies; may be empty
}

// LintOn reports whether rule applies to tool t of package p: the tool's //tool:lint wins over
// the package's, and a rule neither mentions is on.
func LintOn(p *Package, t *Tool, rule string) bool {
	if on, ok := t.Lint[rule]; ok {
		return on
	}
	if on, ok := p.Lint[rule]; ok {
		return on
	}
	return true
}

// TaskMode is how a tool runs as an MCP task (//tool:task).
type TaskMode uint8

const (
	TaskNone     TaskMode = iota // no //tool:task: always synchronous
	TaskOptional                 // //tool:task: a task for clients that can run one
	TaskRequired                 // //tool:task required: clients that cannot are refused
)

// Callers says who may call a tool (//tool:callers).
type Callers struct {
	Direct bool // the model's own tool calls
	Code   bool // code the model runs (programmatic calling, code execution)
}

// Handler describes the Go signature behind a tool.
type Handler struct {
	Name     string    // func or method name
	Receiver *Receiver // nil for a plain func
	Context  bool      // first parameter is context.Context
	Args     ArgsMode
	Returns  ReturnMode
	// Validate is set when the args type has a method Validate(context.Context) error.
	Validate bool
}

// Receiver is the receiver of a method handler.
type Receiver struct {
	TypeName string // the named type, declared in the tool's package
	Pointer  bool   // the method has a pointer receiver
	// Members are the names of the type's methods and fields (of *T, and promoted ones), as
	// written by hand: a generated Tools() method is left out where one of them is "Tools".
	Members []string
}

// ArgsMode is how the handler takes its arguments.
type ArgsMode int

const (
	ArgsNone    ArgsMode = iota // func(ctx) (R, error)
	ArgsValue                   // func(ctx, args T) ...
	ArgsPointer                 // func(ctx, args *T) ...
)

// ReturnMode is what the handler returns besides the error.
type ReturnMode int

const (
	ReturnNone       ReturnMode = iota // func(...) error
	ReturnText                         // (string, error): the text the model reads
	ReturnResult                       // (runtime.Result, error): used as is
	ReturnStructured                   // (R, error): structured JSON with an output schema
)

// Retry is a //tool:retry policy.
type Retry struct {
	Max      int
	Delay    time.Duration
	Backoff  float64
	MaxDelay time.Duration
}

// Hints are the MCP behaviour hints from //tool:hints.
type Hints struct {
	ReadOnly    bool
	Idempotent  bool
	Destructive bool
	OpenWorld   bool
}

// Example is a //tool:example: an example call.
type Example struct {
	Pos      Position
	Scenario string
	Args     string // JSON text, as written
	Expected string
}

// Related is a //tool:related reference to another tool.
type Related struct {
	Pos      Position
	Name     string
	Relation string
}

// Icon is one //tool:icon: Src is an https URL or a data: URI (a file the parser embedded).
type Icon struct {
	Src      string
	MIMEType string
	Sizes    []string
	Theme    string
}

// Meta is one //tool:meta key=value pair.
type Meta struct {
	Key   string
	Value string
}

// Kind is the JSON-facing kind of a Go type.
type Kind int

const (
	KindInvalid  Kind = iota
	KindString        // string kinds; a named one with typed constants has Enum
	KindBool          // bool
	KindInt           // int, int8 … int64 (Bits)
	KindUint          // uint, uint8 … uint64 (Bits)
	KindFloat         // float32, float64 (Bits)
	KindStruct        // struct: a JSON object with fixed properties
	KindSlice         // []T: a JSON array
	KindArray         // [N]T: a JSON array of exactly N items
	KindMap           // map[K]V: a JSON object with additionalProperties V
	KindPointer       // *T: T or null
	KindBytes         // []byte: a base64 string
	KindTime          // time.Time: an RFC 3339 date-time string
	KindDuration      // time.Duration: a Go duration string ("1h30m")
	KindRawJSON       // json.RawMessage: any JSON value, kept as bytes
	KindAny           // any / interface{}: any JSON value, decoded as encoding/json does
	KindText          // implements encoding.TextUnmarshaler: a string
)

var kindNames = [...]string{"invalid", "string", "bool", "int", "uint", "float", "struct", "slice",
	"array", "map", "pointer", "bytes", "time", "duration", "rawjson", "any", "text"}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return fmt.Sprintf("Kind(%d)", int(k))
}

// GoName names a Go type declared in some package, with type arguments for an instantiated
// generic type.
type GoName struct {
	Path     string  // import path of the declaring package
	Name     string  // type name
	TypeArgs []*Type // for an instantiated generic type, in order
}

// Type is the shape of a Go type as JSON sees it. Named struct types are shared: every use of
// the same named type points at the same *Type, so the graph may be cyclic (recursive types).
type Type struct {
	Kind  Kind
	Named *GoName // nil for an unnamed type (struct{...}, []T, map[K]V, *T, basic types)
	Bits  int     // KindInt/KindUint: 8, 16, 32, 64, or 0 for int/uint; KindFloat: 32 or 64
	Elem  *Type   // slice, array and pointer element; map value
	Key   *Type   // map key: KindString, KindInt, KindUint or KindText
	Len   int     // array length

	Fields []*Field     // KindStruct: the JSON properties, embedded fields promoted, in order
	Enum   []*EnumValue // typed constants of a named string or integer type, in declaration order

	Doc string // the type's doc comment, for the description of a $defs entry
	// AlwaysDef is set by //tool:defs on the type's declaration: its schema goes under $defs
	// even where it is used once.
	AlwaysDef bool
	Pos       Position // the type's declaration, when it has one

	// TextPointer is set for KindText when UnmarshalText has a pointer receiver; the value
	// receiver case is rare but legal.
	TextPointer bool
	// TextMarshal is set for KindText when the type also implements encoding.TextMarshaler, so
	// the result encoder can write it back as a string.
	TextMarshal bool

	// Comparable is set when values of the type can be compared with == (go/types.Comparable,
	// unexported and `json:"-"` fields included): the result encoder tests omitzero by
	// comparing with the zero value, as reflect.Value.IsZero does, without reflection.
	Comparable bool
	// IsZeroMethod is set when the type, or its pointer, has an IsZero() bool method (not set
	// on pointer types): encoding/json's omitzero calls it instead of comparing.
	IsZeroMethod bool

	// Shape spells the underlying type of a named type as toolgen saw it, every field of a
	// struct included (unexported, `json:"-"`, with its whole tag), for the generated code's
	// guard that fails the build when the type changed and the decoder tables, which write at
	// fixed offsets, are stale; for an unnamed struct type, the type itself, which its decoder
	// table names. Nil for any other unnamed type, one that decodes itself (KindText), and one
	// generated code cannot spell (an unexported name of another package, a field of function,
	// channel or non-empty interface type).
	Shape *GoType
}

// HoldsText reports whether a value of type t holds a TextUnmarshaler (KindText), as a value,
// an element or a map key, at any depth: its schema can only say "a string" there, and its
// UnmarshalText may refuse more. A nil t holds none.
func (t *Type) HoldsText() bool { return t.holdsText(map[*Type]bool{}) }

func (t *Type) holdsText(seen map[*Type]bool) bool {
	if t == nil || seen[t] {
		return false
	}
	seen[t] = true
	if t.Kind == KindText || t.Key.holdsText(seen) || t.Elem.holdsText(seen) {
		return true
	}
	for _, f := range t.Fields {
		if f.Type.holdsText(seen) {
			return true
		}
	}
	return false
}

// GoTypeKind says what a GoType spells.
type GoTypeKind int

// The kinds of GoType.
const (
	GoNamed   GoTypeKind = iota // a declared or predeclared type: Path (empty for predeclared), Name, Args
	GoPointer                   // *Elem
	GoSlice                     // []Elem
	GoArray                     // [Len]Elem
	GoMap                       // map[Key]Elem
	GoStruct                    // struct{Fields}
)

// GoType is a Go type spelled for generated code: unlike Type, which says what JSON sees, it
// says what the compiler sees.
type GoType struct {
	Kind   GoTypeKind
	Path   string    // GoNamed: import path of the declaring package; empty for predeclared types and any
	Name   string    // GoNamed
	Args   []*GoType // GoNamed: type arguments of an instantiated generic type
	Elem   *GoType   // GoPointer, GoSlice, GoArray; GoMap's value
	Key    *GoType   // GoMap
	Len    int64     // GoArray
	Fields []GoField // GoStruct, in order
}

// GoField is one field of a GoStruct, as declared.
type GoField struct {
	Name     string // the field's name; for an embedded field, the name of its type
	Embedded bool
	Type     *GoType
	Tag      string // the whole tag, as reflect.StructTag sees it
}

// Field is one JSON property of a struct type.
type Field struct {
	Pos      Position
	GoName   string // the Go field name
	JSONName string // the property name
	// Embedded lists the embedded struct fields traversed to reach a promoted field, outermost
	// first; empty for a direct field.
	Embedded []Embedded
	Type     *Type

	Required    bool
	Nullable    bool // null is accepted: a pointer, or tagged nullable
	OmitEmpty   bool // json omitempty: the result encoder leaves zero values out
	OmitZero    bool // json omitzero
	Description string
	Constraints Constraints
	// DefaultWritten is set when the tag has a default=, even one refused with an error
	// (Constraints.Default is then nil): the optional-default rule does not ask for another.
	DefaultWritten bool
	// Accept lists the providers (gen/provider names) whose loss at this field the user
	// accepted with tool:"accept=…": their warnings about it are not reported.
	Accept []string
	// Header is the HTTP header name of tool:"header=NAME": the argument is mirrored into the
	// Mcp-Param-NAME header (the input schema's x-mcp-header); HeaderPos is where NAME is written.
	Header    string
	HeaderPos Position
}

// Embedded is one step through an embedded struct field.
type Embedded struct {
	GoName string
	// Pointer is set when the embedded field is a pointer; the decoder allocates it on first use.
	Pointer bool
	Type    *Type // the embedded struct type (not the pointer)
}

// EnumValue is one typed constant of an enum type.
type EnumValue struct {
	GoName string // the constant's name
	String string // KindString: the value
	Int    int64  // KindInt/KindUint: the value (uint64 values above MaxInt64 are not enums)
	Doc    string // the constant's doc or line comment
}

// Constraints are the `tool:"..."` keywords of a field. Keywords that belong to the element of
// a slice, array or map (or the target of a pointer to one) sit in Items, one level down per
// container; Items is nil when no element keyword was given.
type Constraints struct {
	Minimum          *Number
	Maximum          *Number
	ExclusiveMinimum *Number
	ExclusiveMaximum *Number
	MultipleOf       *Number

	MinLength *int // in code points
	MaxLength *int
	Pattern   string // RE2 syntax, as the JSON Schema validators of Go run it
	Format    string // one of the formats the annotations registry lists

	MinItems    *int
	MaxItems    *int
	UniqueItems bool

	MinProperties *int
	MaxProperties *int

	// Enum restricts the value to these JSON literals (from enum=a|b|c), in the order written.
	Enum []Literal

	Default    *Literal
	Title      string
	Examples   []Literal
	Deprecated bool

	Items *Constraints
}

// IsZero reports whether no keyword is set.
func (c *Constraints) IsZero() bool {
	return c == nil || (c.Minimum == nil && c.Maximum == nil && c.ExclusiveMinimum == nil &&
		c.ExclusiveMaximum == nil && c.MultipleOf == nil && c.MinLength == nil &&
		c.MaxLength == nil && c.Pattern == "" && c.Format == "" && c.MinItems == nil &&
		c.MaxItems == nil && !c.UniqueItems && c.MinProperties == nil && c.MaxProperties == nil &&
		len(c.Enum) == 0 && c.Default == nil && c.Title == "" && len(c.Examples) == 0 &&
		!c.Deprecated && c.Items.IsZero())
}

// Number is a numeric keyword: the JSON text as written (so 10 stays 10, not 10.0) and its value.
type Number struct {
	Text  string
	Value float64
}

// Literal is a JSON value given in a tag (enum member, default, example).
type Literal struct {
	JSON string // canonical JSON text: "celsius", 3, true
}
