package mcp

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// How a tool runs as a task. HTTPHandler and ServeStdio, which read the client's messages
// before the SDK does, serve the extension on protocol 2026-07-28: they advertise it in
// server/discover, answer tasks/get, tasks/update and tasks/cancel themselves (the go-sdk
// v1.8.0 refuses methods it does not know before any middleware sees them), and serve every
// tools/call of a //tool:task tool whose _meta declares the extension. The go-sdk's own
// transports (NewServer alone) serve such tools synchronously and do not advertise it.
//
// The call goes through Registry.Invoke as any other, under a context the server owns (it
// outlives the request; tasks/cancel or the task's TTL cancels it): limits, argument checks,
// the repeat guard and approval come first and are answered synchronously, an approval asked
// as an input-required result (the extension has the server settle such exchanges before it
// makes a task). Once the call passed them (runtime.CallHooks.Prepared) the task is stored
// and the client gets its id (resultType "task"); the handler runs, with the tool's timeout
// and retries, and its result is stored for tasks/get. What the handler asks the client
// (Ask, Elicit, Sample) during a task puts the task in input_required with the questions, and
// the run waits for the answers tasks/update delivers, on whatever replica it lands.

// taskRunner holds the tasks of one served registry.
type taskRunner struct {
	store    TaskStore
	limits   TaskLimits
	executor TaskExecutor // nil: tasks run here
	// on: the server reads the client's messages itself (HTTPHandler, ServeStdio), so that
	// tasks/* reach it; the extension is offered only then.
	on atomic.Bool

	mu    sync.Mutex
	local map[string]*localTask // the tasks running here, by id
	now   func() time.Time
}

func newTaskRunner(store TaskStore, limits TaskLimits, executor TaskExecutor) *taskRunner {
	if store == nil {
		store = NewMemoryTaskStore()
	}
	return &taskRunner{store: store, limits: limits.resolved(), executor: executor, local: map[string]*localTask{}, now: time.Now}
}

// localTask is a task running on this replica.
type localTask struct {
	id, owner string
	cancel    context.CancelFunc
	cancelled atomic.Bool // tasks/cancel reached it
	// gone is closed when the task can no longer be reached (the stdio connection whose own
	// session owns it closed); nil while it can be.
	gone <-chan struct{}

	mu   sync.Mutex
	wake chan struct{} // closed when answers may have come (tasks/update here), then replaced
	// used are the input keys the task sent the client: a key is never used twice in a
	// task, as the extension requires.
	used map[string]bool
	// progress is the last runtime.Progress message, for the task's statusMessage.
	progress string
}

// woken returns the channel closed at the next wake.
func (t *localTask) woken() <-chan struct{} {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.wake
}

func (t *localTask) wakeUp() {
	t.mu.Lock()
	defer t.mu.Unlock()
	close(t.wake)
	t.wake = make(chan struct{})
}

// freshKey returns key, or key with a suffix when the task sent it before.
func (t *localTask) freshKey(key string) string {
	t.mu.Lock()
	defer t.mu.Unlock()
	k := key
	for i := 2; t.used[k]; i++ {
		k = fmt.Sprintf("%s.%d", key, i)
	}
	t.used[k] = true
	return k
}

// declaresTasks reports whether a request's _meta declares the tasks extension in its
// client capabilities.
func declaresTasks(meta map[string]any) bool {
	caps, _ := meta["io.modelcontextprotocol/clientCapabilities"].(map[string]any)
	ext, _ := caps["extensions"].(map[string]any)
	_, ok := ext[TasksExtension]
	return ok
}

// errTasksRequired is the refusal of a //tool:task required call that cannot be a task.
func errTasksRequired(tool string) error {
	data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{TasksExtension: struct{}{}}}})
	return &jsonrpc.Error{Code: mcp.CodeMissingRequiredClientCapabilities,
		Message: fmt.Sprintf("%s runs only as an MCP task: call it on protocol 2026-07-28 with the %s extension declared in the request's client capabilities, on a server that offers it", tool, TasksExtension), Data: data}
}

// taskOwner is who may see the tasks a call makes: its user and, where the registry session
// outlives the request, that session. Over stateless HTTP with SessionPerConnection each
// request is a session of its own, so only the user counts (and without authentication the
// task's random id is all that guards it).
func (s *served) taskOwner(req *mcp.CallToolRequest, key string, conn *connection) string {
	session := key
	if s.sessionKey.perRequest || req.Session == nil && key == conn.key {
		session = ""
	}
	return "user:" + principal(req) + "\x00session:" + session
}

// runTask serves call, whose client declared the tasks extension, as a task: it returns the
// task once the call passed its checks and the task is stored, or, when the call ends before
// (refused, denied, an approval to ask), its synchronous answer.
func (s *served) runTask(ctx context.Context, cc *callContext, call runtime.Call, hooks *runtime.CallHooks, conn *connection) (*mcp.CallToolResult, *Task, error) {
	tr := s.tasks
	owner := s.taskOwner(cc.req, call.Session, conn)
	// The run holds the registry session until it ends, past the request.
	release, _ := s.sessions.hold(conn, call.Session, false)
	runCtx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	// A task of the connection's own session (stdio) is unreachable once the connection
	// closes, no one else can name its owner: its run ends then.
	var gone <-chan struct{}
	if cc.req.Session != nil && call.Session == conn.key {
		gone = s.sessions.whenClosed(conn)
	}
	started := make(chan Task, 1)
	ended := make(chan runtime.Result, 1)
	var lt *localTask
	hooks.Progress = func(_ context.Context, done, total float64, message string) {
		if lt != nil {
			lt.mu.Lock()
			lt.progress = progressText(done, total, message)
			lt.mu.Unlock()
		}
	}
	if tr.executor != nil {
		defer release()
		defer cancel()
		return s.handTask(ctx, runCtx, cc, call, hooks, owner)
	}
	hooks.Prepared = func(context.Context) error {
		t, err := tr.create(runCtx, owner)
		if err != nil {
			return taskRefusal(call.Name, err)
		}
		lt = tr.track(t, cancel, gone)
		cc.task.Store(&taskAsker{runner: tr, task: lt, served: s})
		started <- t
		return nil
	}
	go func() {
		defer release()
		defer cancel()
		res := s.reg.Invoke(runtime.WithCallHooks(runCtx, hooks), call)
		if lt == nil {
			ended <- res
			return
		}
		defer tr.untrack(lt)
		s.finishTask(runCtx, cc, call, lt, res)
	}()
	select {
	case t := <-started:
		go tr.watch(runCtx, lt, cancel)
		return nil, &t, nil
	case res := <-ended:
		out, err := s.finish(ctx, cc, call, res)
		return out, nil, err
	case <-ctx.Done():
		cancel() // the client left before the task was made: the call ends unrun or cancelled
		select {
		case t := <-started:
			go tr.watch(runCtx, lt, cancel)
			return nil, &t, nil
		case res := <-ended:
			out, err := s.finish(ctx, cc, call, res)
			return out, nil, err
		}
	}
}

// errHandedOver ends the call here once a TaskExecutor took it over.
var errHandedOver = errors.New("mcp: the task's run was handed to its executor")

// handTask serves call as a task the TaskExecutor runs: once the call passed its checks, the
// task is stored and handed over, and the call ends here, unrun.
func (s *served) handTask(ctx, runCtx context.Context, cc *callContext, call runtime.Call, hooks *runtime.CallHooks, owner string) (*mcp.CallToolResult, *Task, error) {
	tr := s.tasks
	var started *Task
	hooks.Prepared = func(context.Context) error {
		t, err := tr.create(runCtx, owner)
		if err != nil {
			return taskRefusal(call.Name, err)
		}
		if err := tr.executor.Start(runCtx, t, call); err != nil {
			failure, _ := json.Marshal(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the task could not be started"})
			_, _ = tr.store.Update(context.WithoutCancel(runCtx), owner, t.ID, func(t *Task) bool {
				if t.Terminal() {
					return false
				}
				t.Status, t.StatusMessage, t.Error, t.Updated = TaskFailed, "The task could not be started.", failure, tr.now().UTC()
				return true
			})
			return fmt.Errorf("%s was not run: its task could not be started (%v); call again later", call.Name, err)
		}
		started = &t
		return errHandedOver
	}
	res := s.reg.Invoke(runtime.WithCallHooks(runCtx, hooks), call)
	if started != nil {
		return nil, started, nil
	}
	out, err := s.finish(ctx, cc, call, res)
	return out, nil, err
}

func progressText(done, total float64, message string) string {
	switch {
	case total > 0 && message != "":
		return fmt.Sprintf("%g/%g: %s", done, total, message)
	case total > 0:
		return fmt.Sprintf("%g/%g", done, total)
	}
	return message
}

// taskRefusal words for the model why a call was not made a task.
func taskRefusal(tool string, err error) error {
	var limit *TaskLimitError
	if errors.As(err, &limit) {
		if limit.Owner {
			return fmt.Errorf("%s was not run: this caller already has %d unfinished tasks, the server's limit; wait for one to finish, or cancel one with tasks/cancel, then call again", tool, limit.Limit)
		}
		return fmt.Errorf("%s was not run: the server holds %d tasks, its limit; call again later", tool, limit.Limit)
	}
	return fmt.Errorf("%s was not run: its task could not be stored (%v); call again later", tool, err)
}

// newTaskID is a task id: 128 random bits, unguessable, as the extension requires of ids
// that guard a task.
func newTaskID() string { return rand.Text() }

// create stores a new working task of owner.
func (tr *taskRunner) create(ctx context.Context, owner string) (Task, error) {
	now := tr.now().UTC()
	t := Task{ID: newTaskID(), Owner: owner, Status: TaskWorking, Created: now, Updated: now, Beat: now, Expires: now.Add(tr.limits.TTL),
		Durable: tr.executor != nil, MaxResultBytes: tr.limits.MaxResultBytes}
	return t, tr.store.Create(ctx, t, tr.limits.MaxPerOwner, tr.limits.MaxTotal)
}

// track records a task running here, for tasks/cancel and tasks/update to reach it at once.
func (tr *taskRunner) track(t Task, cancel context.CancelFunc, gone <-chan struct{}) *localTask {
	lt := &localTask{id: t.ID, owner: t.Owner, cancel: cancel, gone: gone, wake: make(chan struct{}), used: map[string]bool{}}
	tr.mu.Lock()
	defer tr.mu.Unlock()
	tr.local[t.ID] = lt
	return lt
}

func (tr *taskRunner) untrack(lt *localTask) {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	delete(tr.local, lt.id)
}

func (tr *taskRunner) running(owner, id string) *localTask {
	tr.mu.Lock()
	defer tr.mu.Unlock()
	if lt := tr.local[id]; lt != nil && lt.owner == owner {
		return lt
	}
	return nil
}

// watch keeps a running task in touch with the store until ctx ends: every poll interval it
// shows the run alive (Beat), writes its progress as the status message, and stops it when a
// tasks/cancel (on any replica) asked, the task expired, or its owner's connection closed
// (lt.gone). Answers made on another replica
// wake the questions waiting on them.
func (tr *taskRunner) watch(ctx context.Context, lt *localTask, cancel context.CancelFunc) {
	expiry := time.NewTimer(tr.limits.TTL)
	defer expiry.Stop()
	tick := time.NewTicker(tr.limits.PollInterval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-expiry.C:
			cancel()
			return
		case <-lt.gone:
			cancel()
			return
		case <-tick.C:
		}
		lt.mu.Lock()
		progress := lt.progress
		lt.mu.Unlock()
		t, err := tr.store.Update(ctx, lt.owner, lt.id, func(t *Task) bool {
			if t.Terminal() {
				return false
			}
			t.Beat = tr.now().UTC()
			if progress != "" && t.Status == TaskWorking && t.StatusMessage != progress {
				t.StatusMessage, t.Updated = progress, t.Beat
			}
			return true
		})
		switch {
		case errors.Is(err, ErrTaskNotFound):
			cancel() // expired, or the store lost it: no one can read what it would make
			return
		case err != nil:
			continue // the store is out: try again at the next tick
		case t.CancelRequested || t.Status == TaskCancelled:
			lt.cancelled.Store(true)
			cancel()
			return
		case len(t.InputResponses) > 0:
			lt.wakeUp()
		}
	}
}

// finishTask stores how the run of a task ended: its result (completed, a tool error
// included), the protocol error it failed with (failed), or cancelled when tasks/cancel
// stopped it. A task tasks/cancel ended already keeps its status.
func (s *served) finishTask(ctx context.Context, cc *callContext, call runtime.Call, lt *localTask, res runtime.Result) {
	tr := s.tasks
	// The run's ctx may be cancelled by now (tasks/cancel, the TTL); reading a stored result
	// and the store write, the task's last word, are bounded on their own.
	ctx, stop := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
	defer stop()
	status, result, failure, message := TaskCompleted, json.RawMessage(nil), json.RawMessage(nil), ""
	switch err := missingCapability(res.Err); {
	case lt.cancelled.Load():
		status, message = TaskCancelled, "Cancelled by the client."
	case err != nil:
		status, message = TaskFailed, err.Error()
		var wire *jsonrpc.Error
		errors.As(err, &wire)
		failure, _ = json.Marshal(wire)
	default:
		result = taskResultJSON(call.Name, s.result(ctx, cc, call, res), tr.limits.MaxResultBytes)
	}
	_, _ = tr.store.Update(ctx, lt.owner, lt.id, func(t *Task) bool {
		if t.Terminal() {
			return false
		}
		now := tr.now().UTC()
		t.Status, t.StatusMessage, t.Result, t.Error = status, message, result, failure
		if t.CancelRequested {
			t.Status, t.StatusMessage, t.Result, t.Error = TaskCancelled, "Cancelled by the client.", nil, nil
		}
		t.InputRequests, t.InputResponses, t.Updated, t.Beat = nil, nil, now, now
		return true
	})
}

// taskAsker is how a handler running as a task asks its client: the questions go into the
// task (input_required, surfaced by tasks/get) and the run waits for the answers tasks/update
// delivers.
type taskAsker struct {
	runner *taskRunner
	task   *localTask
	served *served
}

// ask puts inputs in the task and waits for every answer, until ctx ends.
func (a *taskAsker) ask(ctx context.Context, inputs []Input) (map[string]mcp.InputResponse, error) {
	tr, lt := a.runner, a.task
	wire := make(map[string]Input, len(inputs)) // by the key sent to the client
	reqs := mcp.InputRequestMap{}
	for _, in := range inputs {
		k := lt.freshKey(in.Key)
		wire[k] = in
		reqs[k] = in.Request
	}
	data, err := json.Marshal(reqs)
	if err != nil {
		return nil, fmt.Errorf("mcp: encoding the task's questions: %w", err)
	}
	var asked map[string]json.RawMessage
	if err := json.Unmarshal(data, &asked); err != nil {
		return nil, err
	}
	if _, err := tr.store.Update(ctx, lt.owner, lt.id, func(t *Task) bool {
		if t.Terminal() {
			return false
		}
		if t.InputRequests == nil {
			t.InputRequests = map[string]json.RawMessage{}
		}
		for k, v := range asked {
			t.InputRequests[k] = v
		}
		t.Status, t.StatusMessage, t.Updated = TaskInputRequired, "Waiting for the client's answer.", tr.now().UTC()
		return true
	}); err != nil {
		return nil, fmt.Errorf("mcp: the task's questions could not be stored: %w", err)
	}

	answers := make(map[string]mcp.InputResponse, len(inputs))
	tick := time.NewTicker(tr.limits.PollInterval)
	defer tick.Stop()
	for {
		woken := lt.woken()
		var taken map[string]json.RawMessage
		_, err := tr.store.Update(ctx, lt.owner, lt.id, func(t *Task) bool {
			taken = map[string]json.RawMessage{}
			for k := range wire {
				if v, ok := t.InputResponses[k]; ok {
					taken[k] = v
					delete(t.InputResponses, k)
				}
			}
			return len(taken) > 0
		})
		if errors.Is(err, ErrTaskNotFound) {
			return nil, ctx.Err()
		}
		for k, raw := range taken {
			in := wire[k]
			res, err := decodeAnswer(kindOf(in.Request), raw)
			if err != nil {
				return nil, fmt.Errorf("mcp: the client's answer to %q cannot be read: %w", in.Key, err)
			}
			answers[in.Key] = res
			delete(wire, k)
		}
		if len(wire) == 0 {
			return answers, nil
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-woken:
		case <-tick.C:
		}
	}
}
