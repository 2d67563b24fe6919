package runtime_test

import (
	"context"
	"errors"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/decode"
	"github.com/toolgen-go/toolgen/runtime/toolimpl"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

type pageArgs struct {
	Query string
	Limit int
}

type otherArgs struct {
	Limit int
	Query string
}

var (
	pageFields = decode.NewFields([]string{"query", "limit"}, 0)
	pageString = decode.Value{Kind: decode.KindString}
	pageInt    = decode.Value{Kind: decode.KindInt, Size: uint8(unsafe.Sizeof(int(0)))}
	// pageTable is the table of pageArgs, as generated code declares it.
	pageTable = decode.Struct{Fields: pageFields, Members: []decode.Member{
		{Offset: unsafe.Offsetof(pageArgs{}.Query), Value: &pageString},
		{Offset: unsafe.Offsetof(pageArgs{}.Limit), Value: &pageInt},
	}}
)

// tableBinding binds args of type A with table.
func tableBinding[A any](table *decode.Struct, run func(*A) runtime.Result) *toolimpl.Binding {
	return &toolimpl.Binding{
		New: func() *toolimpl.CallSlot {
			c := new(toolimpl.Slot[A])
			return c.Hold(&c.Args)
		},
		Table: table,
		Run:   func(_ context.Context, a any) runtime.Result { return run(a.(*A)) },
	}
}

// A binding decodes with its table, into the arguments New allocated.
func TestBindingDecodesWithItsTable(t *testing.T) {
	b := tableBinding(&pageTable, func(a *pageArgs) runtime.Result {
		return runtime.TextResult(a.Query + "/" + string(rune('0'+a.Limit)))
	})
	tool := bound("page", b)
	call, err := tool.BindArgs(context.Background(), []byte(`{"query":"go","limit":7}`))
	require.NoError(t, err)
	assert.Equal(t, "go/7", call.Run(context.Background()).Text)

	_, err = tool.BindArgs(context.Background(), []byte(`{"limit":"x","extra":1}`))
	var ae *runtime.ArgsError
	require.ErrorAs(t, err, &ae)
	assert.Len(t, ae.Problems, 3, "the wrong type, the unknown property and the missing one: %v", err)
}

// A table that does not match the arguments' type is refused before it writes anything, on
// every call, with an error that is not the model's to fix.
func TestBindingRefusesATableOfAnotherType(t *testing.T) {
	ran := false
	b := tableBinding(&pageTable, func(*otherArgs) runtime.Result { ran = true; return runtime.TextResult("") })
	for range 2 {
		_, err := bound("other", b).BindArgs(context.Background(), []byte(`{"query":"go","limit":7}`))
		require.Error(t, err)
		var ae *runtime.ArgsError
		assert.False(t, errors.As(err, &ae), "a stale table is not the model's mistake")
		assert.Contains(t, err.Error(), "run go generate")
	}
	assert.False(t, ran)

	// Through the registry it is an internal error: the model is not told to correct
	// arguments it could not have got right, and the operator reads what to do.
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(bound("other", b)))
	res := reg.Invoke(context.Background(), runtime.Call{Name: "other", Args: []byte(`{"query":"go","limit":7}`)})
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindInternal, res.Kind)
	assert.NotContains(t, res.Text, "Correct the arguments")
	assert.ErrorContains(t, res.Err, "run go generate")
	assert.False(t, ran)
}

// BindTools gives each tool its binding and a copy the caller may change.
func TestBindToolsCopiesAndBinds(t *testing.T) {
	b := tableBinding(&pageTable, func(a *pageArgs) runtime.Result { return runtime.TextResult(a.Query) })
	static := []runtime.Tool{
		{Name: "page", Tags: []string{"search"}, InputSchema: []byte(`{"type":"object"}`), Metadata: map[string]string{"k": "v"}},
		{Name: "client", Client: true},
	}
	tools := toolimpl.BindTools(static, []*toolimpl.Binding{b, nil}, [][2][]string{{}, {{`{"type":"object"}`}, {`{"type":`, `"string"}`}}}, []string{variant.OpenAI})
	require.Len(t, tools, 2)
	require.Same(t, b, toolimpl.BindingOf(tools[0]))
	assert.Nil(t, toolimpl.BindingOf(tools[1]), "no binding: left as is")
	call, err := tools[0].BindArgs(context.Background(), []byte(`{"query":"q"}`))
	require.NoError(t, err)
	assert.Equal(t, "q", call.Run(context.Background()).Text)

	assert.Equal(t, []string{variant.OpenAI}, tools[1].Dialects, "the package's variants, on every tool")
	assert.Equal(t, `{"type":"string"}`, string(tools[1].OutputSchema))
	assert.Equal(t, `{"type":"object"}`, string(tools[0].InputSchema), "no schema given: the tool's own")
	tools[0].Tags[0] = "changed"
	tools[0].InputSchema[1] = 'X'
	tools[0].Metadata["k"] = "changed"
	assert.Equal(t, "search", static[0].Tags[0])
	assert.Equal(t, `{"type":"object"}`, string(static[0].InputSchema))
	assert.Equal(t, "v", static[0].Metadata["k"])
}

// A table is proven for the type it decodes into: decoding into another type after the right
// one (a binding written by hand, say) is refused, and the right type still decodes.
func TestTableIsCheckedForEachType(t *testing.T) {
	var page pageArgs
	require.NoError(t, pageTable.DecodeArgs([]byte(`{"query":"a"}`), &page))
	var other otherArgs
	err := pageTable.DecodeArgs([]byte(`{"query":"a"}`), &other)
	require.ErrorContains(t, err, "run go generate")
	assert.Equal(t, otherArgs{}, other, "nothing written")
	require.NoError(t, pageTable.DecodeArgs([]byte(`{"query":"b","limit":2}`), &page))
	assert.Equal(t, pageArgs{Query: "b", Limit: 2}, page)
	require.Error(t, pageTable.DecodeArgs([]byte(`{}`), page), "not a pointer")
}
