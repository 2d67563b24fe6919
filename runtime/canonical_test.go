package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/deploy"
)

func TestCanonicalArgs(t *testing.T) {
	for _, c := range []struct{ doc, want string }{
		{` { "b" : 1 , "a" : [ 2 , { "d":null, "c":true } ] } `, `{"a":[2,{"c":true,"d":null}],"b":1}`},
		{`{"s":"\u0041\/\"\\\n\u0007é\u00e9"}`, `{"s":"A/\"\\\n\u0007éé"}`},
		{`{"pair":"\ud83d\ude00","lone":"\uD800x","lone2":"\udc00"}`, `{"lone":"\ud800x","lone2":"\udc00","pair":"😀"}`},
		{`[1.0, 1e2, 1E+2, 0.10, -0, -0.0e5, 0, 100e-2, 12.5e-1, 1e21, 1e22, 0.000001, 0.0000001, 1234567890123456789, 9223372036854775807.0]`,
			`[1,100,100,0.1,-0,-0,0,1,1.25,1e+21,1e+22,0.000001,1e-7,1234567890123456789,9223372036854775807]`},
		{`[1e9999999999, 1e-0000000000000001]`, `[1e9999999999,0.1]`},
		{`{"k":"a","k":"b"}`, `{"k":"a","k":"b"}`}, // a hand-written Bind may accept duplicates: both kept, in order
	} {
		got, err := runtime.CanonicalArgs([]byte(c.doc), nil)
		require.NoError(t, err, c.doc)
		assert.Equal(t, c.want, got, c.doc)
	}
	for _, bad := range []string{`{`, `{"a" 1}`, `[01]`, `"\x"`, "\"a\x01\"", `1.`, `tru`, `{} {}`} {
		_, err := runtime.CanonicalArgs([]byte(bad), nil)
		assert.Error(t, err, bad)
	}

	// The schema's defaults are added where a property is absent, in nested objects, items,
	// map values and $defs too.
	schema := `{"type":"object","$defs":{"P":{"type":"object","properties":{"x":{"type":"integer","default":1.0}}}},
		"properties":{"unit":{"type":"string","default":"celsius"},"p":{"$ref":"#/$defs/P"},
		"list":{"type":"array","items":{"$ref":"#/$defs/P"}},"m":{"type":"object","additionalProperties":{"$ref":"#/$defs/P"}},
		"opt":{"anyOf":[{"type":"null"},{"$ref":"#/$defs/P"}]}}}`
	got, err := runtime.CanonicalArgs([]byte(`{"p":{},"list":[{},{"x":2}],"m":{"a":{}},"opt":{}}`), []byte(schema))
	require.NoError(t, err)
	assert.Equal(t, `{"list":[{"x":1},{"x":2}],"m":{"a":{"x":1}},"opt":{"x":1},"p":{"x":1},"unit":"celsius"}`, got)
	got, err = runtime.CanonicalArgs([]byte(`{"unit":"kelvin"}`), []byte(schema))
	require.NoError(t, err)
	assert.Equal(t, `{"unit":"kelvin"}`, got)
}

// Deep nesting of unsorted objects costs bounded work: past it the form is refused, not built.
func TestCanonicalArgsBoundsSortingWork(t *testing.T) {
	const depth = 5000
	doc := strings.Repeat(`{"b":1,"a":`, depth) + `0` + strings.Repeat(`}`, depth)
	_, err := runtime.CanonicalArgs([]byte(doc), nil)
	assert.Error(t, err)
}

// An approval covers exactly the JSON the model sent, through a generated tool whose argument
// types encoding/json marshals as {} (TextUnmarshalers without MarshalText, with unexported
// fields only, next to json:"-" and unexported fields).
func TestApprovalBindsTheArgumentsTheModelSent(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithApprovalQueue())
	require.NoError(t, reg.Add(deploy.Tools()...))
	call := func(id, args string) runtime.Result {
		return reg.Invoke(t.Context(), runtime.Call{ID: id, Session: "s", Name: "deploy", Args: []byte(args)})
	}

	staging := call("c1", `{"target":"staging.internal","version":"1.2"}`)
	require.NotEmpty(t, staging.PendingApproval, staging.Text)
	pending := reg.Pending()
	require.Len(t, pending, 1)
	assert.Equal(t, `{"region":"eu-west","target":"staging.internal","version":"1.2"}`, string(pending[0].RawArgs),
		"the approver sees what the model sent, with the default that applies")
	require.NoError(t, reg.Approve(staging.PendingApproval, "ada"))

	// The same call id with another target is another request: it waits, it does not run.
	prod := call("c1", `{"target":"prod.internal","version":"1.2"}`)
	assert.NotEqual(t, staging.PendingApproval, prod.PendingApproval)
	assert.NotEmpty(t, prod.PendingApproval, prod.Text)
	other := call("c1", `{"target":"staging.internal","version":"1.3"}`)
	assert.NotEmpty(t, other.PendingApproval, other.Text)

	// The approved call runs, with what was approved; spelled differently, it is the same call.
	res := call("c1", `{ "version" : "1.2", "target" : "staging\u002einternal", "region": "eu-west" }`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "deployed 1.2 to staging.internal in eu-west; restarted []", res.Text)
}

// The repeated-call guard tells apart calls whose decoded values marshal alike.
func TestRepeatGuardComparesTheArgumentsTheModelSent(t *testing.T) {
	var mu sync.Mutex
	var ran []string
	reg := runtime.NewRegistry(runtime.WithLoopGuard(runtime.LoopGuard{RefuseRepeats: true}),
		runtime.WithApprover(runtime.ApproverFunc(func(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
			mu.Lock()
			defer mu.Unlock()
			ran = append(ran, "approve "+string(req.RawArgs))
			return runtime.Decision{Approved: true}, nil
		})))
	require.NoError(t, reg.Add(deploy.Tools()...))
	require.NoError(t, reg.Add(jsonTool("tag", func(_ context.Context, a opaqueArgs) runtime.Result {
		mu.Lock()
		defer mu.Unlock()
		ran = append(ran, "tag "+a.Label.s)
		return runtime.TextResult("tagged")
	})))
	for _, c := range []struct{ name, args string }{
		{"deploy", `{"target":"a.internal","version":"1.0"}`},
		{"deploy", `{"target":"b.internal","version":"1.0"}`},
		{"tag", `{"label":"x"}`},
		{"tag", `{"label":"y"}`},
	} {
		res := reg.Invoke(t.Context(), runtime.Call{Name: c.name, Session: "s", Args: []byte(c.args)})
		require.False(t, res.IsError, "%s %s: %s", c.name, c.args, res.Text)
	}
	res := reg.Invoke(t.Context(), runtime.Call{Name: "tag", Session: "s", Args: []byte(`{"label": "y"}`)})
	assert.Equal(t, runtime.KindLimit, res.Kind, "a true repeat is still refused")
	assert.Equal(t, []string{
		`approve {"region":"eu-west","target":"a.internal","version":"1.0"}`,
		`approve {"region":"eu-west","target":"b.internal","version":"1.0"}`,
		"tag x", "tag y",
	}, ran)
}

// opaque has its own UnmarshalJSON and only unexported fields: encoding/json marshals it as {}.
type opaque struct{ s string }

func (o *opaque) UnmarshalJSON(data []byte) error {
	if err := json.Unmarshal(data, &o.s); err != nil {
		return fmt.Errorf("label: %w", err)
	}
	return nil
}

type opaqueArgs struct {
	Label  opaque `json:"label"`
	Secret string `json:"-"`
	//lint:ignore U1000 present so that the args type has an unexported field
	note string
}
