package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"time"
)

// The MCP tasks extension (io.modelcontextprotocol/tasks, protocol 2026-07-28) lets a server
// answer a tools/call with a task (resultType "task") that the client polls with tasks/get
// until it holds the result, answers with tasks/update when the task asks for input, and
// stops with tasks/cancel. A tool runs as a task when its directives say so (//tool:task,
// runtime.Tool.Task). A task's state and result live in a TaskStore: the server's own memory
// (NewMemoryTaskStore, the default), or one every replica shares (runtime/redisstore's
// Store.Tasks), so that tasks/get on any replica answers.

// Task statuses (Task.Status), as the extension names them.
const (
	TaskWorking       = "working"
	TaskInputRequired = "input_required"
	TaskCompleted     = "completed"
	TaskFailed        = "failed"
	TaskCancelled     = "cancelled"
)

// TasksExtension is the identifier of the MCP tasks extension, under which a server and a
// client declare it in their capabilities.
const TasksExtension = "io.modelcontextprotocol/tasks"

// Task is one MCP task as a TaskStore keeps it. Its ID is random (128 bits), for the client
// to name; Owner is who may see it (the authenticated user and, where it outlives a request,
// the registry session of the call that made it), compared by the store, never sent.
type Task struct {
	ID            string    `json:"id"`
	Owner         string    `json:"owner"`
	Status        string    `json:"status"`
	StatusMessage string    `json:"statusMessage,omitempty"`
	Created       time.Time `json:"created"`
	Updated       time.Time `json:"updated"`
	// Expires is when the store forgets the task (Created plus TaskLimits.TTL); a run still
	// going then is cancelled.
	Expires time.Time `json:"expires"`
	// Beat is the last time the run showed it is alive (every TaskLimits.PollInterval): a
	// working task whose beat stopped lost its server, and tasks/get reports it failed.
	Beat time.Time `json:"beat"`
	// Result is the CallToolResult's JSON, once completed; Error the JSON-RPC error, once
	// failed.
	Result json.RawMessage `json:"result,omitempty"`
	Error  json.RawMessage `json:"error,omitempty"`
	// InputRequests are the questions the run waits on (input_required), by key;
	// InputResponses the answers tasks/update delivered that the run has not taken yet.
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
	InputResponses map[string]json.RawMessage `json:"inputResponses,omitempty"`
	// CancelRequested is set by tasks/cancel, for the run, wherever it is, to stop.
	CancelRequested bool `json:"cancelRequested,omitempty"`
	// Durable is set when a TaskExecutor runs the task (WithTaskExecutor): its run beats no
	// Beat, so tasks/get never reports it lost; the executor ends it.
	Durable bool `json:"durable,omitempty"`
	// MaxResultBytes is the TaskLimits.MaxResultBytes of the server that made the task, which
	// CompleteTask applies wherever the result is stored.
	MaxResultBytes int `json:"maxResultBytes,omitempty"`
}

// Terminal reports whether the task ended: completed, failed or cancelled.
func (t *Task) Terminal() bool {
	return t.Status == TaskCompleted || t.Status == TaskFailed || t.Status == TaskCancelled
}

// ErrTaskNotFound is a TaskStore's answer for a task it does not keep for the owner asking:
// never made, forgotten (expired), or another owner's; the three look the same to a client.
var ErrTaskNotFound = errors.New("mcp: task not found")

// TaskLimitError is a TaskStore's refusal of a new task past its bounds.
type TaskLimitError struct {
	Limit int  // the bound reached
	Owner bool // the owner's bound (TaskLimits.MaxPerOwner); else the store's (MaxTotal)
}

func (e *TaskLimitError) Error() string {
	if e.Owner {
		return fmt.Sprintf("mcp: %d tasks of this caller are kept already, the server's limit", e.Limit)
	}
	return fmt.Sprintf("mcp: %d tasks are kept already, the server's limit", e.Limit)
}

// TaskStore keeps MCP tasks for every replica that serves them. Implementations must be safe
// for concurrent use; a task is kept until its Expires, then forgotten.
type TaskStore interface {
	// Create stores a new task, once, refusing it with a *TaskLimitError when its owner has
	// maxPerOwner tasks unfinished (working or input_required) or the store keeps maxTotal
	// tasks, finished or not, that have not expired (0: no bound). When it returns nil, Get
	// finds the task.
	Create(ctx context.Context, task Task, maxPerOwner, maxTotal int) error
	// Get returns the task id of owner, or ErrTaskNotFound.
	Get(ctx context.Context, owner, id string) (Task, error)
	// Update changes the task id of owner atomically: change gets the stored task and
	// returns whether to store what it made of it (it may be called again, on a fresh copy,
	// when another writer came first). It returns the task as stored, or ErrTaskNotFound.
	Update(ctx context.Context, owner, id string, change func(*Task) bool) (Task, error)
}

// MemoryTaskStore is a TaskStore in the server's memory: tasks are seen only by the replica
// that made them.
type MemoryTaskStore struct {
	mu    sync.Mutex
	tasks map[string]*Task
	now   func() time.Time
}

// NewMemoryTaskStore returns an empty MemoryTaskStore.
func NewMemoryTaskStore() *MemoryTaskStore {
	return &MemoryTaskStore{tasks: map[string]*Task{}, now: time.Now}
}

// Create implements TaskStore.
func (m *MemoryTaskStore) Create(_ context.Context, task Task, maxPerOwner, maxTotal int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.sweep()
	unfinished := 0
	for _, t := range m.tasks {
		if t.Owner == task.Owner && !t.Terminal() {
			unfinished++
		}
	}
	switch {
	case m.tasks[task.ID] != nil:
		return fmt.Errorf("mcp: task %s exists already", task.ID)
	case maxPerOwner > 0 && unfinished >= maxPerOwner:
		return &TaskLimitError{Limit: maxPerOwner, Owner: true}
	case maxTotal > 0 && len(m.tasks) >= maxTotal:
		return &TaskLimitError{Limit: maxTotal}
	}
	t := cloneTask(task)
	m.tasks[task.ID] = &t
	return nil
}

// Get implements TaskStore.
func (m *MemoryTaskStore) Get(_ context.Context, owner, id string) (Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.find(owner, id)
	if t == nil {
		return Task{}, ErrTaskNotFound
	}
	return cloneTask(*t), nil
}

// Update implements TaskStore.
func (m *MemoryTaskStore) Update(_ context.Context, owner, id string, change func(*Task) bool) (Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t := m.find(owner, id)
	if t == nil {
		return Task{}, ErrTaskNotFound
	}
	changed := cloneTask(*t)
	if change(&changed) {
		changed.ID, changed.Owner = t.ID, t.Owner
		*t = changed
	}
	return cloneTask(*t), nil
}

// find returns the live task id of owner; m.mu is held.
func (m *MemoryTaskStore) find(owner, id string) *Task {
	t := m.tasks[id]
	if t == nil || t.Owner != owner {
		return nil
	}
	if !m.now().Before(t.Expires) {
		delete(m.tasks, t.ID)
		return nil
	}
	return t
}

// sweep forgets the expired tasks; m.mu is held. Create calls it, so what the store holds
// stays within its bounds without a goroutine of its own.
func (m *MemoryTaskStore) sweep() {
	now := m.now()
	for _, t := range m.tasks {
		if !now.Before(t.Expires) {
			delete(m.tasks, t.ID)
		}
	}
}

// cloneTask copies t's maps, so that a caller's changes never reach the store's copy.
func cloneTask(t Task) Task {
	t.InputRequests = cloneRaw(t.InputRequests)
	t.InputResponses = cloneRaw(t.InputResponses)
	return t
}

func cloneRaw(m map[string]json.RawMessage) map[string]json.RawMessage {
	if m == nil {
		return nil
	}
	out := make(map[string]json.RawMessage, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// TaskLimits bound the tasks a server runs and keeps. The zero value of a field is its
// default.
type TaskLimits struct {
	// MaxPerOwner is how many unfinished tasks (working or waiting for input) one owner (a
	// user, and the session where it outlives a request) has at once
	// (DefaultMaxTasksPerOwner). A call past it is answered with a tool error, unrun.
	MaxPerOwner int
	// MaxTotal is how many tasks the store keeps for everyone, finished ones until they
	// expire (DefaultMaxTasks).
	MaxTotal int
	// MaxResultBytes bounds the JSON of a task's result (DefaultMaxTaskResultBytes): a larger
	// one is kept as a tool error saying so. The registry's result caps (//tool:maxresult)
	// apply first. MaxTotal × MaxResultBytes bounds what results the store holds (1 GiB by
	// default; results are rarely near the cap, whose text part is 16 KiB by default).
	MaxResultBytes int
	// TTL is how long a task is kept from its creation (DefaultTaskTTL), sent as its ttlMs: a
	// run still going then is cancelled, and the task forgotten.
	TTL time.Duration
	// PollInterval is the polling interval suggested to clients (pollIntervalMs), and how
	// often a run looks in the store for a cancellation or answers made on another replica,
	// and shows it is alive (DefaultTaskPollInterval). A working task whose run has not shown
	// itself alive for 10 intervals (at least 5 s) lost its server: tasks/get reports it failed.
	PollInterval time.Duration
}

// Defaults of TaskLimits.
const (
	DefaultMaxTasksPerOwner   = 16
	DefaultMaxTasks           = 4096
	DefaultMaxTaskResultBytes = 256 << 10
	DefaultTaskTTL            = time.Hour
	DefaultTaskPollInterval   = time.Second
)

func (l TaskLimits) resolved() TaskLimits {
	if l.MaxPerOwner <= 0 {
		l.MaxPerOwner = DefaultMaxTasksPerOwner
	}
	if l.MaxTotal <= 0 {
		l.MaxTotal = DefaultMaxTasks
	}
	if l.MaxResultBytes <= 0 {
		l.MaxResultBytes = DefaultMaxTaskResultBytes
	}
	if l.TTL <= 0 {
		l.TTL = DefaultTaskTTL
	}
	if l.PollInterval <= 0 {
		l.PollInterval = DefaultTaskPollInterval
	}
	return l
}

// staleAfter is how long a working task's run may be silent before it counts as lost.
func (l TaskLimits) staleAfter() time.Duration {
	return max(10*l.PollInterval, 5*time.Second)
}

// WithTaskStore keeps the server's MCP tasks in store (a NewMemoryTaskStore of its own
// otherwise): give replicas behind one load balancer a shared one (runtime/redisstore's
// Store.Tasks), so that tasks/get, tasks/update and tasks/cancel reach a task on any of them.
func WithTaskStore(store TaskStore) Option {
	return func(c *config) { c.taskStore = store }
}

// WithTaskLimits sets the bounds of the server's MCP tasks (TaskLimits; its zero fields keep
// their defaults).
func WithTaskLimits(l TaskLimits) Option {
	return func(c *config) { c.taskLimits = l }
}
