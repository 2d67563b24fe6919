package client

// The intermediate representation: what the generated package declares, with every name
// decided. build.go makes it from a tools/list document; emit.go renders it and decides
// nothing.

// Package is one generated client package.
type Package struct {
	Name  string
	Tools []*Tool // sorted by wire name
	Types []*Type // every named type, sorted by Go name when emitted
}

// Tool is one remote tool: a method of the generated Client.
type Tool struct {
	Name    string // the name on the wire
	Method  string // the Go method
	Doc     string // the tool's description
	Pointer string // JSON Pointer of the tool in the tools/list document

	// Args is the argument type; HasArgs is false for a tool whose inputSchema declares no
	// properties, whose method then takes no argument.
	Args    GoType
	HasArgs bool
	// Result is the type structuredContent decodes into; HasResult is false for a tool
	// without an outputSchema, whose method returns the *mcp.CallToolResult itself.
	Result    GoType
	HasResult bool
}

// TypeKind says what a named type declares.
type TypeKind int

const (
	StructType TypeKind = iota // an object with properties
	EnumType                   // a string enum: a string type and a constant per value
)

// Type is a named type of the generated package.
type Type struct {
	Name    string
	Doc     string
	Kind    TypeKind
	Pointer string // where its schema is, for messages
	Origin  string // where its schema is, for its doc comment: tool, schema, pointer within

	Fields []*Field     // StructType
	Values []*EnumValue // EnumType

	// Where the schema sits in its document, for merging and naming (dedupe.go).
	root bool   // the document's root: <Method>Args or <Method>Result, never merged
	def  string // the $defs (or definitions) entry it is, if one
	prop string // the property whose own schema it is, if one
}

// Field is one property of a struct type.
type Field struct {
	Name      string // Go field name
	JSON      string // property name
	Doc       string
	Type      GoType
	OmitEmpty bool // the property is optional
}

// EnumValue is one constant of an enum type.
type EnumValue struct {
	Name  string // Go constant name
	Value string
}

// Kind is the kind of a Go type expression.
type Kind int

const (
	KindRaw     Kind = iota // json.RawMessage: any JSON, decoded by the caller
	KindString              // string
	KindInt                 // int
	KindFloat               // float64
	KindBool                // bool
	KindTime                // time.Time (format date-time)
	KindBytes               // []byte (contentEncoding base64)
	KindSlice               // []Elem
	KindMap                 // map[string]Elem
	KindPointer             // *Elem
	KindNamed               // Named
)

// GoType is a Go type expression.
type GoType struct {
	Kind  Kind
	Elem  *GoType // KindSlice, KindMap, KindPointer
	Named *Type   // KindNamed
}

func sliceOf(t GoType) GoType { return GoType{Kind: KindSlice, Elem: &t} }
func mapOf(t GoType) GoType   { return GoType{Kind: KindMap, Elem: &t} }
func ptrTo(t GoType) GoType   { return GoType{Kind: KindPointer, Elem: &t} }
func named(t *Type) GoType    { return GoType{Kind: KindNamed, Named: t} }

// nilable reports whether the type's zero value is nil, so that it already says "null" or
// "absent" without a pointer.
func (t GoType) nilable() bool {
	switch t.Kind {
	case KindRaw, KindBytes, KindSlice, KindMap, KindPointer:
		return true
	}
	return false
}

// isStruct reports whether encoding/json's omitempty would never leave the value out
// (structs, time.Time): such optional fields are pointers.
func (t GoType) isStruct() bool {
	return t.Kind == KindTime || t.Kind == KindNamed && t.Named.Kind == StructType
}
