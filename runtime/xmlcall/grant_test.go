package xmlcall

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// A text call of a tool outside the caller's grant is refused as the registry refuses it, as
// an unknown tool, before its parameters are converted by the schema: the problems of a
// value that does not convert would tell the caller the tool exists, and how it is called.
func TestInvokeKeepsAHiddenToolHidden(t *testing.T) {
	tool := runtime.Tool{
		Name: "delete_repo", Scopes: []string{"admin"},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer"}},"required":["count"],"additionalProperties":false}`),
		Bind: func(context.Context, []byte) (runtime.BoundCall, error) {
			t.Error("a hidden tool bound its arguments")
			return nil, nil
		},
	}
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(tool))
	ctx := runtime.WithGrant(context.Background(), runtime.Grant{})
	got := Invoke(ctx, reg, Call{ID: "c", Name: "delete_repo", Params: []Param{{Name: "count", Value: "many"}}})
	want := runtime.NewRegistry().Invoke(ctx, runtime.Call{Name: "delete_repo"})
	assert.True(t, got.IsError)
	assert.Equal(t, want.Text, got.Text)
	assert.NotContains(t, got.Text, "count")
}
