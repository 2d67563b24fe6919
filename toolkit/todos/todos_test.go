package todos_test

import (
	"context"
	"encoding/json"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	toolanthropic "github.com/toolgen-go/toolgen/runtime/anthropic"
	"github.com/toolgen-go/toolgen/toolkit/todos"
)

func newRegistry(t *testing.T, k *todos.Toolkit, opts ...runtime.Option) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry(opts...)
	require.NoError(t, reg.Add(k.Tools()...))
	return reg
}

func call(t *testing.T, reg *runtime.Registry, session, name, args string) runtime.Result {
	t.Helper()
	return reg.Invoke(t.Context(), runtime.Call{ID: "c", Name: name, Args: []byte(args), Session: session})
}

func changeOf(t *testing.T, res runtime.Result) todos.Change {
	t.Helper()
	require.Len(t, res.Effects, 1, res.Text)
	c, ok := res.Effects[0].(todos.Change)
	require.True(t, ok, "effect %T", res.Effects[0])
	return c
}

func TestWriteTodosIsEffectOnlyAndObserved(t *testing.T) {
	var mu sync.Mutex
	var events []runtime.Effect
	reg := newRegistry(t, &todos.Toolkit{}, runtime.WithObserver(func(_ context.Context, e runtime.Event) {
		if e.Kind == runtime.EventEffect {
			mu.Lock()
			events = append(events, e.Effect)
			mu.Unlock()
		}
	}))
	res := call(t, reg, "s1", "write_todos", `{"todos":[{"id":"1","content":"Reproduce","status":"in_progress"},{"id":"2","content":"Fix","status":"pending"}]}`)
	require.False(t, res.IsError, res.Text)
	assert.True(t, res.EffectOnly(), "write_todos sends the model nothing")
	want := []todos.Todo{{ID: "1", Content: "Reproduce", Status: todos.InProgress}, {ID: "2", Content: "Fix", Status: todos.Pending}}
	assert.Equal(t, want, changeOf(t, res).Todos)
	assert.Equal(t, "todo_change", res.Effects[0].EffectName())
	assert.Equal(t, []runtime.Effect{todos.Change{Todos: want}}, events)

	list := call(t, reg, "s1", "todo_list", "")
	assert.Equal(t, "[~] 1: Reproduce (in_progress)\n[ ] 2: Fix (pending)\n0 of 2 completed.", list.Text)
	assert.Empty(t, list.Effects, "listing changes nothing")

	// Another session has its own, empty list.
	assert.Equal(t, "The todo list is empty.", call(t, reg, "s2", "todo_list", "").Text)
}

func TestInProgressLimit(t *testing.T) {
	two := `{"todos":[{"id":"a","content":"A","status":"in_progress"},{"id":"b","content":"B","status":"in_progress"}]}`
	res := call(t, newRegistry(t, &todos.Toolkit{}), "", "write_todos", two)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `at most 1 todo item(s) may be in_progress at once, got 2 ("a", "b")`)
	assert.Empty(t, res.Effects)

	assert.False(t, call(t, newRegistry(t, &todos.Toolkit{MaxInProgress: 2}), "", "write_todos", two).IsError)
	assert.False(t, call(t, newRegistry(t, &todos.Toolkit{MaxInProgress: -1}), "", "write_todos", two).IsError)

	// todo_update is held to the same rule, and a refused change leaves the list as it was.
	reg := newRegistry(t, &todos.Toolkit{})
	call(t, reg, "", "write_todos", `{"todos":[{"id":"a","content":"A","status":"in_progress"},{"id":"b","content":"B","status":"pending"}]}`)
	res = call(t, reg, "", "todo_update", `{"id":"b","status":"in_progress"}`)
	require.True(t, res.IsError)
	assert.Contains(t, call(t, reg, "", "todo_list", "").Text, "[ ] b: B (pending)")
}

func TestListRules(t *testing.T) {
	reg := newRegistry(t, &todos.Toolkit{MaxItems: 2})
	res := call(t, reg, "", "write_todos", `{"todos":[{"id":"a","content":"A","status":"pending"},{"id":"a","content":"B","status":"pending"}]}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `todo id "a" is used twice`)

	res = call(t, reg, "", "write_todos", `{"todos":[{"id":"a","content":"A","status":"pending"},{"id":"b","content":"B","status":"pending"},{"id":"c","content":"C","status":"pending"}]}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "at most 2 items")

	res = call(t, reg, "", "write_todos", `{"todos":[{"id":"a","content":"A","status":"done"}]}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, `/todos/0/status: must be one of "pending", "in_progress", "completed"`)
}

// In one turn, "complete 1, start 2" runs in the model's order, not concurrently.
func TestCallsOfOneTurnRunInOrder(t *testing.T) {
	reg := newRegistry(t, &todos.Toolkit{})
	call(t, reg, "s", "write_todos", `{"todos":[{"id":"1","content":"A","status":"in_progress"},{"id":"2","content":"B","status":"pending"}]}`)
	for range 20 {
		results := reg.InvokeAll(t.Context(), []runtime.Call{
			{Name: "todo_update", Session: "s", Args: []byte(`{"id":"1","status":"completed"}`)},
			{Name: "todo_update", Session: "s", Args: []byte(`{"id":"2","status":"in_progress"}`)},
			{Name: "todo_update", Session: "s", Args: []byte(`{"id":"2","status":"completed"}`)},
			{Name: "todo_update", Session: "s", Args: []byte(`{"id":"1","status":"in_progress"}`)},
		})
		for _, res := range results {
			require.False(t, res.IsError, res.Text)
		}
	}
}

func TestAddUpdateList(t *testing.T) {
	reg := newRegistry(t, &todos.Toolkit{})
	res := call(t, reg, "s", "todo_add", `{"content":"Write tests"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "Added todo 1: Write tests (pending).", res.Text)
	assert.False(t, res.EffectOnly(), "the model reads what was added")
	assert.Equal(t, []todos.Todo{{ID: "1", Content: "Write tests", Status: todos.Pending}}, changeOf(t, res).Todos)

	res = call(t, reg, "s", "todo_add", `{"content":"Ship","id":"ship"}`)
	assert.Len(t, changeOf(t, res).Todos, 2)
	res = call(t, reg, "s", "todo_add", `{"content":"Review"}`)
	assert.Equal(t, "Added todo 2: Review (pending).", res.Text)

	res = call(t, reg, "s", "todo_update", `{"id":"1","status":"completed","content":"Write the tests"}`)
	require.False(t, res.IsError, res.Text)
	assert.Equal(t, "Updated.\n[x] 1: Write the tests (completed)\n[ ] ship: Ship (pending)\n[ ] 2: Review (pending)\n1 of 3 completed.", res.Text)
	assert.Equal(t, todos.Completed, changeOf(t, res).Todos[0].Status)

	res = call(t, reg, "s", "todo_update", `{"id":"9","status":"completed"}`)
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindNotFound, res.Kind)
	assert.Contains(t, res.Text, `no todo with id "9"; the ids are: "1", "ship", "2"`)
}

// jsonStore keeps values as JSON and gives back JSON's Go types, as runtime/redisstore does.
type jsonStore struct{ *runtime.MemoryStore }

func (s jsonStore) Get(ctx context.Context, session, key string) (any, bool, error) {
	v, ok, err := s.MemoryStore.Get(ctx, session, key)
	if !ok || err != nil {
		return nil, ok, err
	}
	var out any
	return out, true, json.Unmarshal(v.([]byte), &out)
}

func (s jsonStore) Set(ctx context.Context, session, key string, value any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return err
	}
	return s.MemoryStore.Set(ctx, session, key, data)
}

func (s jsonStore) Update(ctx context.Context, session, key string, fn func(old any, ok bool) (any, error)) error {
	return s.MemoryStore.Update(ctx, session, key, func(old any, ok bool) (any, error) {
		var v any
		if ok {
			if err := json.Unmarshal(old.([]byte), &v); err != nil {
				return nil, err
			}
		}
		next, err := fn(v, ok)
		if err != nil {
			return nil, err
		}
		return json.Marshal(next)
	})
}

// A store that keeps the list as JSON (Redis, shared by replicas) keeps it whole: the list read
// back is the list written. Before, it read back empty, each call starting a new list.
func TestTheListSurvivesAJSONStore(t *testing.T) {
	reg := newRegistry(t, &todos.Toolkit{}, runtime.WithSessionStore(jsonStore{&runtime.MemoryStore{}}))
	require.False(t, call(t, reg, "s", "todo_add", `{"content":"Write tests"}`).IsError)
	res := call(t, reg, "s", "todo_add", `{"content":"Ship","id":"ship"}`)
	assert.Equal(t, []todos.Todo{{ID: "1", Content: "Write tests", Status: todos.Pending}, {ID: "ship", Content: "Ship", Status: todos.Pending}}, changeOf(t, res).Todos)
	res = call(t, reg, "s", "todo_update", `{"id":"1","status":"completed"}`)
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "1 of 2 completed.")
}

// The effect flow end to end: a model's tool_use in Anthropic's wire format, dispatched by
// the adapter, answered with an empty tool_result while the host gets the typed change.
func TestEffectThroughAnthropicAdapter(t *testing.T) {
	reg := newRegistry(t, &todos.Toolkit{})
	msg := `{"content":[{"type":"tool_use","id":"toolu_1","name":"write_todos","input":{"todos":[{"id":"1","content":"Plan","status":"in_progress"}]}},
		{"type":"tool_use","id":"toolu_2","name":"todo_list","input":{}}]}`
	calls, err := toolanthropic.ParseCalls([]byte(msg))
	require.NoError(t, err)
	outs := toolanthropic.Dispatch(t.Context(), reg, calls)
	require.Len(t, outs, 2)

	var hostSaw []todos.Todo
	for _, o := range outs {
		for _, e := range o.Result.Effects {
			if c, ok := e.(todos.Change); ok {
				hostSaw = c.Todos
			}
		}
	}
	assert.Equal(t, []todos.Todo{{ID: "1", Content: "Plan", Status: todos.InProgress}}, hostSaw)

	wire, err := toolanthropic.ToolResultsJSON(outs)
	require.NoError(t, err)
	var blocks []map[string]any
	require.NoError(t, json.Unmarshal(wire, &blocks))
	require.Len(t, blocks, 2)
	assert.Equal(t, map[string]any{"type": "tool_result", "tool_use_id": "toolu_1"}, blocks[0], "nothing for the model")
	// The todo tools are sequential: the listing sees the list the call before it wrote.
	assert.Equal(t, "[~] 1: Plan (in_progress)\n0 of 1 completed.", blocks[1]["content"])
}
