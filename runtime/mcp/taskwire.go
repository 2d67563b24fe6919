package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"net/http"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// The tasks extension on the wire: CreateTaskResult and tasks/get's DetailedTask (a flat
// Result & Task), and the methods tasks/get, tasks/update and tasks/cancel.

// taskWire is a task as the client reads it.
type taskWire struct {
	Meta           map[string]json.RawMessage `json:"_meta,omitempty"`
	ResultType     string                     `json:"resultType"`
	TaskID         string                     `json:"taskId"`
	Status         string                     `json:"status"`
	StatusMessage  string                     `json:"statusMessage,omitempty"`
	CreatedAt      string                     `json:"createdAt"`
	LastUpdatedAt  string                     `json:"lastUpdatedAt"`
	TTLMs          int64                      `json:"ttlMs"`
	PollIntervalMs int64                      `json:"pollIntervalMs"`
	Result         json.RawMessage            `json:"result,omitempty"`
	Error          json.RawMessage            `json:"error,omitempty"`
	InputRequests  map[string]json.RawMessage `json:"inputRequests,omitempty"`
}

// wireTime is an ISO 8601 timestamp, in UTC to the millisecond.
func wireTime(t time.Time) string { return t.UTC().Format("2006-01-02T15:04:05.000Z") }

// taskJSON is the JSON-RPC response carrying t: a CreateTaskResult (resultType "task") or a
// tasks/get result ("complete", with the result, error or questions its status carries).
func (s *served) taskJSON(id json.RawMessage, t Task, resultType string) []byte {
	w := taskWire{
		ResultType: resultType, TaskID: t.ID, Status: t.Status, StatusMessage: t.StatusMessage,
		CreatedAt: wireTime(t.Created), LastUpdatedAt: wireTime(t.Updated),
		TTLMs: t.Expires.Sub(t.Created).Milliseconds(), PollIntervalMs: max(s.tasks.limits.PollInterval.Milliseconds(), 1),
	}
	if s.serverInfo != nil {
		w.Meta = map[string]json.RawMessage{metaServerInfo: s.serverInfo}
	}
	if resultType == "complete" {
		switch t.Status {
		case TaskCompleted:
			w.Result = t.Result
		case TaskFailed:
			w.Error = t.Error
		case TaskInputRequired:
			w.InputRequests = t.InputRequests
		}
	}
	data, _ := json.Marshal(rpcAnswer{"2.0", id, w}) // strings and raw JSON the server made
	return data
}

// ackJSON is the empty acknowledgement of tasks/update and tasks/cancel.
func (s *served) ackJSON(id json.RawMessage) []byte {
	ack := map[string]any{"resultType": "complete"}
	if s.serverInfo != nil {
		ack["_meta"] = map[string]json.RawMessage{metaServerInfo: s.serverInfo}
	}
	data, _ := json.Marshal(rpcAnswer{"2.0", id, ack})
	return data
}

// taskMethod reports whether method is one this server answers for the extension.
func taskMethod(method string) bool {
	return method == "tasks/get" || method == "tasks/update" || method == "tasks/cancel"
}

// taskParams are the params of tasks/get, tasks/update and tasks/cancel.
type taskParams struct {
	TaskID         string                     `json:"taskId"`
	InputResponses map[string]json.RawMessage `json:"inputResponses"`
	Meta           json.RawMessage            `json:"_meta"`
}

// taskError is a JSON-RPC error answering a tasks/* request, and its HTTP status.
func taskError(id json.RawMessage, code int64, message string, data json.RawMessage) ([]byte, int) {
	out, _ := json.Marshal(rpcError{"2.0", id, &jsonrpc.Error{Code: code, Message: message, Data: data}})
	status := errorStatus(code)
	if code == mcp.CodeHeaderMismatch {
		status = http.StatusBadRequest
	}
	return out, status
}

// serveTaskRequest answers m, a tasks/get, tasks/update or tasks/cancel of protocol version,
// from session ss (stdio; nil over stateless HTTP) with the HTTP request's header and
// verified token (nil over stdio): the JSON-RPC response and, over HTTP, its status (0: 200).
// A task is found only by the owner that made it; any other gets the answer an unknown id
// gets.
func (s *served) serveTaskRequest(ctx context.Context, m *message, ss *mcp.ServerSession, header http.Header, token *auth.TokenInfo) ([]byte, int) {
	var p taskParams
	if len(m.Params) == 0 || json.Unmarshal(m.Params, &p) != nil {
		return taskError(m.ID, jsonrpc.CodeInvalidParams, m.Method+" needs params {taskId}", nil)
	}
	if header != nil && (header.Get("Mcp-Method") != m.Method || header.Get("Mcp-Name") != p.TaskID) {
		return taskError(m.ID, mcp.CodeHeaderMismatch, "the Mcp-Method and Mcp-Name headers must repeat the request's method and params.taskId", nil)
	}
	var meta map[string]any
	if len(p.Meta) > 0 {
		var err error
		if meta, err = decodeMeta(p.Meta); err != nil {
			return taskError(m.ID, jsonrpc.CodeInvalidParams, "params._meta is not a JSON object", nil)
		}
	}
	if v, _ := meta["io.modelcontextprotocol/protocolVersion"].(string); header != nil && v != header.Get("Mcp-Protocol-Version") {
		return taskError(m.ID, jsonrpc.CodeInvalidParams, "params._meta must name the protocol version the Mcp-Protocol-Version header names", nil)
	}
	if !declaresTasks(meta) {
		data, _ := json.Marshal(map[string]any{"requiredCapabilities": map[string]any{"extensions": map[string]any{TasksExtension: struct{}{}}}})
		return taskError(m.ID, mcp.CodeMissingRequiredClientCapabilities, m.Method+" needs the "+TasksExtension+" extension declared in the request's client capabilities", data)
	}
	if p.TaskID == "" {
		return taskError(m.ID, jsonrpc.CodeInvalidParams, m.Method+" needs params.taskId", nil)
	}
	owner, ok := s.requestOwner(ctx, ss, meta, header, token)
	notFound := func() ([]byte, int) {
		return taskError(m.ID, jsonrpc.CodeInvalidParams, "Failed to retrieve task: Task not found", nil)
	}
	if !ok {
		return notFound()
	}
	tr := s.tasks
	var (
		t   Task
		err error
	)
	switch m.Method {
	case "tasks/get":
		t, err = tr.store.Get(ctx, owner, p.TaskID)
		if err == nil && !t.Terminal() && !t.Durable && tr.now().Sub(t.Beat) > tr.limits.staleAfter() {
			t, err = tr.markLost(ctx, owner, p.TaskID)
		}
	case "tasks/update":
		t, err = tr.store.Update(ctx, owner, p.TaskID, func(t *Task) bool {
			if t.Status != TaskInputRequired {
				return false // answers for questions not asked are ignored
			}
			changed := false
			for k, v := range p.InputResponses {
				if _, asked := t.InputRequests[k]; !asked {
					continue
				}
				if t.InputResponses == nil {
					t.InputResponses = map[string]json.RawMessage{}
				}
				t.InputResponses[k] = v
				delete(t.InputRequests, k)
				changed = true
			}
			if changed {
				t.Updated = tr.now().UTC()
				if len(t.InputRequests) == 0 {
					t.Status, t.StatusMessage, t.InputRequests = TaskWorking, "", nil
				}
			}
			return changed
		})
		if lt := tr.running(owner, p.TaskID); err == nil && lt != nil {
			lt.wakeUp()
		}
	case "tasks/cancel":
		t, err = tr.store.Update(ctx, owner, p.TaskID, func(t *Task) bool {
			if t.Terminal() {
				return false // cancelling an ended task is acknowledged, and changes nothing
			}
			now := tr.now().UTC()
			t.CancelRequested, t.Status, t.StatusMessage, t.Updated = true, TaskCancelled, "Cancelled by the client.", now
			t.InputRequests, t.InputResponses = nil, nil
			return true
		})
		if lt := tr.running(owner, p.TaskID); err == nil && lt != nil {
			lt.cancelled.Store(true)
			lt.cancel()
		}
		if err == nil && t.Durable && tr.executor != nil {
			if cerr := tr.executor.Cancel(ctx, t); cerr != nil {
				err = cerr // the store says cancelled; the run may go on: the client may ask again
			}
		}
	}
	switch {
	case errors.Is(err, ErrTaskNotFound):
		return notFound()
	case err != nil:
		return taskError(m.ID, jsonrpc.CodeInternalError, "the task store cannot be reached; try again", nil)
	case m.Method == "tasks/get":
		return s.taskJSON(m.ID, t, "complete"), 0
	}
	return s.ackJSON(m.ID), 0
}

// markLost fails a task whose run stopped showing itself alive: the server running it died
// (or lost the store) before it ended, so no result will come. Without durable execution it
// cannot be resumed; the client learns so instead of polling until the TTL.
func (tr *taskRunner) markLost(ctx context.Context, owner, id string) (Task, error) {
	failure, _ := json.Marshal(&jsonrpc.Error{Code: jsonrpc.CodeInternalError, Message: "the server running this task stopped before it ended; its result is lost, so call the tool again"})
	return tr.store.Update(ctx, owner, id, func(t *Task) bool {
		if t.Terminal() || tr.now().Sub(t.Beat) <= tr.limits.staleAfter() {
			return false
		}
		now := tr.now().UTC()
		t.Status, t.StatusMessage, t.Error, t.Updated = TaskFailed, "The server running this task stopped before it ended.", failure, now
		t.InputRequests, t.InputResponses = nil, nil
		return true
	})
}

// requestOwner is the owner (taskOwner) a tasks/* request speaks for: the registry session
// its session key gives it, as a tools/call with the same headers, token and _meta gets.
func (s *served) requestOwner(ctx context.Context, ss *mcp.ServerSession, meta map[string]any, header http.Header, token *auth.TokenInfo) (string, bool) {
	req := &mcp.CallToolRequest{Session: ss, Params: &mcp.CallToolParamsRaw{Meta: meta}}
	if header != nil || token != nil {
		req.Extra = &mcp.RequestExtra{Header: header, TokenInfo: token}
	}
	conn, done := s.sessions.connection(ss)
	defer done()
	key, err := s.sessionKey.key(ctx, req, conn.key)
	if err != nil {
		return "", false
	}
	return s.taskOwner(req, key, conn), true
}

// advertiseTasks adds the tasks extension to the capabilities server/discover returns, when
// the server serves it (HTTPHandler, ServeStdio).
func (s *served) advertiseTasks(next mcp.MethodHandler) mcp.MethodHandler {
	return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
		res, err := next(ctx, method, req)
		d, ok := res.(*mcp.DiscoverResult)
		if method != "server/discover" || !ok || d == nil || !s.tasks.on.Load() {
			return res, err
		}
		out := *d
		caps := mcp.ServerCapabilities{}
		if d.Capabilities != nil {
			caps = *d.Capabilities
		}
		caps.Extensions = maps.Clone(caps.Extensions)
		if caps.Extensions == nil {
			caps.Extensions = map[string]any{}
		}
		caps.Extensions[TasksExtension] = map[string]any{}
		out.Capabilities = &caps
		return &out, err
	}
}

// taskMode returns how the listed tool name runs as a task.
func (s *served) taskMode(name string) runtime.TaskMode {
	if m := s.tasked.Load(); m != nil {
		return (*m)[name]
	}
	return runtime.TaskNone
}

// setTaskMode records how the tool name runs as a task; s.mu is held.
func (s *served) setTaskMode(name string, mode runtime.TaskMode) {
	old := s.tasked.Load()
	if old == nil && mode == runtime.TaskNone || old != nil && (*old)[name] == mode {
		return
	}
	m := map[string]runtime.TaskMode{}
	if old != nil {
		m = maps.Clone(*old)
	}
	if mode == runtime.TaskNone {
		delete(m, name)
	} else {
		m[name] = mode
	}
	s.tasked.Store(&m)
}
