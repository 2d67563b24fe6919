// Package todos gives a model a plan it keeps up to date: a todo list per session, in the
// registry's session store (runtime.CallInfo.State), so one registry serves many
// conversations and none sees another's list.
//
// Tools, in two styles that share one list:
//
//   - write_todos {todos: [{id, content, status}]} replaces the whole list (the style of
//     Claude Code's TodoWrite and CMDC's WriteTodos). It is effect-only: the model reads
//     nothing back, the host gets a [Change].
//   - todo_add {content, id, status}, todo_update {id, status, content} and todo_list {} edit
//     and show one item at a time (BeamAI's style); they answer the model with a line of text
//     and, when the list changed, also carry a [Change].
//
// Every change of the list comes back to the host as a typed effect, [Change] (EffectName
// "todo_change"), in runtime.Result.Effects, and is reported to the registry's observer as a
// runtime.EventEffect event. A host shows the list by switching on it:
//
//	for _, e := range res.Effects {
//		if c, ok := e.(todos.Change); ok {
//			ui.ShowTodos(c.Todos)
//		}
//	}
//
// The tools are sequential (//tool:sequential): in a turn with several calls they run one
// after another, in the model's order, so "complete item 1, start item 2" works as meant.
//
// Status is pending, in_progress or completed. At most [Toolkit.MaxInProgress] items may be
// in progress at once (one by default, so the model works on one thing at a time); a list
// breaking that rule is refused with an error naming the items. Ids are unique; a list holds
// at most [Toolkit.MaxItems] items. [Current] reads a session's list from a handler's ctx.
// The list is stored as a []Todo of plain strings: a SessionStore that persists outside the
// process must be able to hold that type (it marshals to JSON as it is).
//
//	reg.Add(new(todos.Toolkit).Tools()...)
package todos

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// Status is the state of a todo item.
type Status string

const (
	Pending    Status = "pending"     // not started
	InProgress Status = "in_progress" // being worked on now
	Completed  Status = "completed"   // done
)

// Todo is one item of the list.
type Todo struct {
	// ID identifies the item in todo_update, e.g. "1" or "write-tests".
	ID string `json:"id" tool:"minLength=1,maxLength=64"`
	// Content says what to do, in a short imperative sentence.
	Content string `json:"content" tool:"minLength=1,maxLength=1000"`
	// Status of the item.
	Status Status `json:"status"`
}

// Change is the effect of every change of a session's list: the whole list after it.
type Change struct {
	Todos []Todo
}

// EffectName is "todo_change".
func (Change) EffectName() string { return "todo_change" }

// Toolkit holds the limits of the todo tools. Its zero value is ready to use.
type Toolkit struct {
	// MaxInProgress is how many items may be in progress at once: 0 means 1, a negative
	// number means no limit.
	MaxInProgress int
	// MaxItems is the longest list: 0 means 100.
	MaxItems int
}

// stateKey is where a session's list lives in the session store.
const stateKey = "toolgen/toolkit/todos"

// WriteTodosArgs are the arguments of write_todos.
type WriteTodosArgs struct {
	// Todos is the whole new list, in the order to work on it; it replaces the old one.
	Todos []Todo `json:"todos" tool:"maxItems=1000"`
}

// WriteTodos replaces the todo list of this conversation with a new one, sent whole.
//
// Use it to plan a task of several steps and to keep the plan current: mark an item
// in_progress before starting it and completed as soon as it is done.
//
//tool:name write_todos
//tool:sequential
//tool:hints idempotent
//tool:timeout 5s
//tool:example "Plan a bug fix" {"todos":[{"id":"1","content":"Reproduce the bug","status":"in_progress"},{"id":"2","content":"Write a failing test","status":"pending"}]}
func (k *Toolkit) WriteTodos(ctx context.Context, args WriteTodosArgs) (runtime.Result, error) {
	list := slices.Clone(args.Todos)
	if err := k.update(ctx, func([]Todo) ([]Todo, error) { return list, nil }); err != nil {
		return runtime.Result{}, err
	}
	return runtime.EffectResult(Change{Todos: slices.Clone(list)}), nil // the host's copy, not the stored one
}

// TodoAddArgs are the arguments of todo_add.
type TodoAddArgs struct {
	// Content says what to do, in a short imperative sentence.
	Content string `json:"content" tool:"minLength=1,maxLength=1000"`
	// ID of the new item; empty takes the next free number.
	ID string `json:"id,omitempty" tool:"default='',maxLength=64"`
	// Status of the new item.
	Status Status `json:"status,omitempty" tool:"default=pending"`
}

// TodoAdd adds one item at the end of the todo list.
//
//tool:name todo_add
//tool:sequential
//tool:timeout 5s
//tool:example {"content":"Write the changelog"}
func (k *Toolkit) TodoAdd(ctx context.Context, args TodoAddArgs) (runtime.Result, error) {
	item := Todo{ID: args.ID, Content: args.Content, Status: args.Status}
	var after []Todo
	err := k.update(ctx, func(list []Todo) ([]Todo, error) {
		if item.ID == "" {
			item.ID = nextID(list)
		}
		after = append(slices.Clone(list), item)
		return after, nil
	})
	if err != nil {
		return runtime.Result{}, err
	}
	return changed(fmt.Sprintf("Added todo %s: %s (%s).", item.ID, item.Content, item.Status), after), nil
}

// TodoUpdateArgs are the arguments of todo_update.
type TodoUpdateArgs struct {
	// ID of the item to change.
	ID string `json:"id" tool:"minLength=1,maxLength=64"`
	// Status is the item's new status; null or left out keeps it.
	Status *Status `json:"status,omitempty"`
	// Content is the item's new text; empty keeps it.
	Content string `json:"content,omitempty" tool:"default='',maxLength=1000"`
}

// TodoUpdate changes the status or the text of one todo item.
//
//tool:name todo_update
//tool:sequential
//tool:hints idempotent
//tool:timeout 5s
//tool:example "Finish an item" {"id":"1","status":"completed"}
func (k *Toolkit) TodoUpdate(ctx context.Context, args TodoUpdateArgs) (runtime.Result, error) {
	var after []Todo
	err := k.update(ctx, func(list []Todo) ([]Todo, error) {
		i := slices.IndexFunc(list, func(t Todo) bool { return t.ID == args.ID })
		if i < 0 {
			return nil, runtime.ModelErrorf(runtime.KindNotFound, "no todo with id %q; the ids are: %s", args.ID, ids(list))
		}
		after = slices.Clone(list)
		if args.Status != nil {
			after[i].Status = *args.Status
		}
		if args.Content != "" {
			after[i].Content = args.Content
		}
		return after, nil
	})
	if err != nil {
		return runtime.Result{}, err
	}
	return changed("Updated.\n"+render(after), after), nil
}

// TodoList shows the todo list of this conversation with each item's id and status.
//
//tool:name todo_list
//tool:sequential
//tool:hints readonly,idempotent
//tool:timeout 5s
func (k *Toolkit) TodoList(ctx context.Context) (string, error) {
	list, err := Current(ctx)
	if err != nil {
		return "", err
	}
	return render(list), nil
}

// Current returns the todo list of the session of the call in ctx.
func Current(ctx context.Context) ([]Todo, error) {
	info, _ := runtime.CallInfoFrom(ctx)
	v, ok, err := info.State.Get(ctx, stateKey)
	if err != nil || !ok {
		return nil, err
	}
	list, err := runtime.StateValue[[]Todo](v)
	return slices.Clone(list), err
}

// update replaces the session's list with what fn makes of it, after checking the result.
func (k *Toolkit) update(ctx context.Context, fn func([]Todo) ([]Todo, error)) error {
	info, _ := runtime.CallInfoFrom(ctx)
	return info.State.Update(ctx, stateKey, func(old any, _ bool) (any, error) {
		list, err := runtime.StateValue[[]Todo](old)
		if err != nil {
			return nil, err
		}
		next, err := fn(list)
		if err != nil {
			return nil, err
		}
		return next, k.check(next)
	})
}

// check enforces unique ids, the length of the list and the in-progress limit.
func (k *Toolkit) check(list []Todo) error {
	maxItems := k.MaxItems
	if maxItems <= 0 {
		maxItems = 100
	}
	if len(list) > maxItems {
		return runtime.ModelErrorf(runtime.KindLimit, "a todo list holds at most %s, this one has %d: merge or drop some", plural.Of(maxItems, "item"), len(list))
	}
	seen := make(map[string]bool, len(list))
	var busy []string
	for _, t := range list {
		if seen[t.ID] {
			return runtime.ModelErrorf(runtime.KindInvalidInput, "todo id %q is used twice: give every item its own id", t.ID)
		}
		seen[t.ID] = true
		if t.Status == InProgress {
			busy = append(busy, strconv.Quote(t.ID))
		}
	}
	limit := k.MaxInProgress
	if limit == 0 {
		limit = 1
	}
	if limit > 0 && len(busy) > limit {
		return runtime.ModelErrorf(runtime.KindInvalidInput,
			"at most %d todo item(s) may be in_progress at once, got %d (%s): finish or pause the others first",
			limit, len(busy), strings.Join(busy, ", "))
	}
	return nil
}

// changed is a text answer for the model that also carries the new list for the host.
func changed(text string, list []Todo) runtime.Result {
	return runtime.Result{Text: text, Effects: []runtime.Effect{Change{Todos: slices.Clone(list)}}}
}

// render shows a list one item a line: "[x] 2: Write tests (completed)".
func render(list []Todo) string {
	if len(list) == 0 {
		return "The todo list is empty."
	}
	var b strings.Builder
	done := 0
	for _, t := range list {
		mark := " "
		switch t.Status {
		case InProgress:
			mark = "~"
		case Completed:
			mark = "x"
			done++
		}
		fmt.Fprintf(&b, "[%s] %s: %s (%s)\n", mark, t.ID, t.Content, t.Status)
	}
	fmt.Fprintf(&b, "%d of %d completed.", done, len(list))
	return b.String()
}

// nextID is one more than the largest numeric id of list.
func nextID(list []Todo) string {
	n := 0
	for _, t := range list {
		if v, err := strconv.Atoi(t.ID); err == nil && v > n {
			n = v
		}
	}
	for {
		n++
		id := strconv.Itoa(n)
		if !slices.ContainsFunc(list, func(t Todo) bool { return t.ID == id }) {
			return id
		}
	}
}

// ids lists the ids of list for an error message.
func ids(list []Todo) string {
	if len(list) == 0 {
		return "none (the list is empty)"
	}
	out := make([]string, len(list))
	for i, t := range list {
		out[i] = strconv.Quote(t.ID)
	}
	return strings.Join(out, ", ")
}
