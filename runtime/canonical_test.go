package runtime_test

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/deploy"
)

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
