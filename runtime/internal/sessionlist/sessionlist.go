// Package sessionlist keeps a list of names in session state (the tools a session asked
// about, the tools it found), for runtime/disclosure and runtime/toolsearch. It reads the list
// back whichever SessionStore holds it: the in-memory store returns the []string it was given,
// a store that keeps JSON (runtime/redisstore) returns a []any of strings.
package sessionlist

import (
	"context"
	"slices"

	"github.com/toolgen-go/toolgen/runtime"
)

// Get returns the names under key, nil when there are none or the store fails.
func Get(ctx context.Context, st runtime.SessionState, key string) []string {
	v, ok, err := st.Get(ctx, key)
	if !ok || err != nil {
		return nil
	}
	return names(v)
}

// Add appends to the list under key the names it does not hold yet. With limit > 0 the list
// keeps the last limit names: the oldest make room.
func Add(ctx context.Context, st runtime.SessionState, key string, add []string, limit int) error {
	return st.Update(ctx, key, func(old any, _ bool) (any, error) {
		list := slices.Clone(names(old))
		for _, n := range add {
			if !slices.Contains(list, n) {
				list = append(list, n)
			}
		}
		if limit > 0 && len(list) > limit {
			list = list[len(list)-limit:]
		}
		return list, nil
	})
}

func names(v any) []string {
	switch v := v.(type) {
	case []string:
		return v
	case []any:
		out := make([]string, 0, len(v))
		for _, e := range v {
			if s, ok := e.(string); ok {
				out = append(out, s)
			}
		}
		return out
	}
	return nil
}
