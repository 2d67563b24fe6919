package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

// downStore is a shared session store that cannot be reached.
type downStore struct{}

var errEOF = errors.New("redisstore: update: EOF")

func (downStore) Get(context.Context, string, string) (any, bool, error) { return nil, false, errEOF }
func (downStore) Set(context.Context, string, string, any) error         { return errEOF }
func (downStore) Update(context.Context, string, string, func(any, bool) (any, error)) error {
	return errEOF
}
func (downStore) Delete(context.Context, string, string) error { return errEOF }
func (downStore) Clear(context.Context, string) error          { return nil }

type stateCall struct{ op string }

func (c stateCall) Args() any { return nil }
func (c stateCall) Run(ctx context.Context) runtime.Result {
	info, _ := runtime.CallInfoFrom(ctx)
	var err error
	switch c.op {
	case "get":
		_, _, err = info.State.Get(ctx, "k")
	case "update":
		err = info.State.Update(ctx, "k", func(any, bool) (any, error) { return 1, nil })
	case "wrapped":
		err = fmt.Errorf("todos: %w", info.State.Set(ctx, "k", 1))
	}
	if err != nil {
		return runtime.ErrorResult(err)
	}
	return runtime.TextResult("ok")
}

// A store outage reaches the model as a retryable error it can act on, not as the store's own
// text, with the loop guard on or off; the operator still has the store's error.
func TestSessionStoreOutageIsClearAndRetryable(t *testing.T) {
	for _, guard := range []bool{false, true} {
		opts := []runtime.Option{runtime.WithSessionStore(downStore{})}
		if guard {
			opts = append(opts, runtime.WithLoopGuard(runtime.LoopGuard{MaxCalls: 100}))
		}
		reg := runtime.NewRegistry(opts...)
		require.NoError(t, reg.Add(runtime.Tool{
			Name: "remember", Description: "Remembers.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Bind: func(_ context.Context, raw []byte) (runtime.BoundCall, error) {
				var a struct{ Op string }
				_ = json.Unmarshal(raw, &a)
				return stateCall{a.Op}, nil
			},
		}))
		for _, op := range []string{"get", "update", "wrapped"} {
			res := reg.Invoke(t.Context(), runtime.Call{Name: "remember", Session: "s", Args: []byte(`{"Op":"` + op + `"}`)})
			require.True(t, res.IsError, "%s: %s", op, res.Text)
			assert.NotContains(t, res.Text, "EOF", "guard %v, %s", guard, op)
			assert.Contains(t, res.Text, "store is unavailable right now; try the call again", "guard %v, %s", guard, op)
			assert.Equal(t, runtime.KindUnavailable, res.Kind, "%s", op)
			assert.ErrorIs(t, res.Err, runtime.ErrSessionStoreUnavailable)
			assert.ErrorIs(t, res.Err, errEOF, "the operator sees the store's error")
		}
	}
}
