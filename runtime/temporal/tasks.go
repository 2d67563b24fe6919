package temporal

import (
	"context"
	"errors"
	"fmt"
	"time"

	enumspb "go.temporal.io/api/enums/v1"
	"go.temporal.io/api/serviceerror"
	"go.temporal.io/sdk/activity"
	"go.temporal.io/sdk/client"
	sdktemporal "go.temporal.io/sdk/temporal"
	"go.temporal.io/sdk/worker"
	"go.temporal.io/sdk/workflow"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// Names of the MCP task workflow and of the activity that stores a task's end.
const (
	// TaskWorkflow is the name of Workflows.Task when registered with Register.
	TaskWorkflow = "toolgen.Task"
	// StoreTaskActivity stores how an MCP task ended in the task store (TaskActivities).
	StoreTaskActivity = "toolgen.StoreTask"
)

// TaskRun is the input of the Task workflow: the MCP task and the call it runs.
type TaskRun struct {
	TaskID string `json:"taskId"`
	Owner  string `json:"owner"`
	Call   Call   `json:"call"`
}

// TaskEnd is how a task's run ended, for StoreTaskActivity: its result, or cancelled.
type TaskEnd struct {
	TaskID    string  `json:"taskId"`
	Owner     string  `json:"owner"`
	Tool      string  `json:"tool"`
	Result    *Result `json:"result,omitempty"`
	Cancelled bool    `json:"cancelled,omitempty"`
}

// TaskWorkflowID is the workflow ID of the run of the MCP task id: one workflow per task.
func TaskWorkflowID(id string) string { return "toolgen-task-" + id }

// Task is a workflow that runs one MCP task's call as Invoke does (the tool's activity, with
// its directives; a //tool:confirm call was approved by the MCP server before the task was
// made), then stores its result in the task store with StoreTaskActivity: the task is
// completed, a tool error included. Cancelled (TaskExecutor.Cancel), it stops the call and
// stores the task cancelled.
func (w *Workflows) Task(ctx workflow.Context, run TaskRun) error {
	call := run.Call
	if t, ok := w.tools[call.Name]; ok && t.Permission == runtime.PermissionConfirm {
		call.Approval = &Approval{CallID: call.ID, Approved: true, By: "mcp"}
	}
	res := w.invoke(ctx, call)
	end := TaskEnd{TaskID: run.TaskID, Owner: run.Owner, Tool: call.Name, Result: &res}
	cancelled := errors.Is(ctx.Err(), workflow.ErrCanceled)
	if cancelled {
		end.Result, end.Cancelled = nil, true
		ctx, _ = workflow.NewDisconnectedContext(ctx)
	}
	ctx = workflow.WithActivityOptions(ctx, workflow.ActivityOptions{
		TaskQueue:           w.opts.TaskQueue,
		StartToCloseTimeout: 30 * time.Second,
		RetryPolicy:         &sdktemporal.RetryPolicy{InitialInterval: time.Second, MaximumInterval: time.Minute},
	})
	if err := workflow.ExecuteActivity(ctx, StoreTaskActivity, end).Get(ctx, nil); err != nil {
		return err
	}
	if cancelled {
		return workflow.ErrCanceled
	}
	return nil
}

// TaskActivities store how MCP tasks ended in the task store the MCP servers share.
type TaskActivities struct {
	store toolmcp.TaskStore
}

// NewTaskActivities returns the activity storing MCP tasks' ends in store: the TaskStore of
// the MCP servers (runtime/redisstore's Store.Tasks behind several replicas).
func NewTaskActivities(store toolmcp.TaskStore) *TaskActivities {
	return &TaskActivities{store: store}
}

// Register registers StoreTask under StoreTaskActivity on w.
func (a *TaskActivities) Register(w worker.ActivityRegistry) {
	w.RegisterActivityWithOptions(a.StoreTask, activity.RegisterOptions{Name: StoreTaskActivity})
}

// StoreTask stores end with toolmcp.CompleteTask (or CancelTask): a task ended already keeps
// how it ended, and one the store forgot (expired) is left forgotten.
func (a *TaskActivities) StoreTask(ctx context.Context, end TaskEnd) error {
	var err error
	if end.Cancelled || end.Result == nil {
		_, err = toolmcp.CancelTask(ctx, a.store, end.Owner, end.TaskID)
	} else {
		r := end.Result
		_, err = toolmcp.CompleteTask(ctx, a.store, end.Owner, end.TaskID, end.Tool,
			runtime.Result{Text: r.Text, Structured: r.Structured, IsError: r.IsError, Kind: r.Kind, Attempts: r.Attempts})
	}
	if errors.Is(err, toolmcp.ErrTaskNotFound) {
		return nil
	}
	return err
}

// TaskExecutor is a toolmcp.TaskExecutor running MCP tasks as Task workflows
// (toolmcp.WithTaskExecutor): a task's run survives the replica that made it, and its result
// reaches the task store through a worker's TaskActivities.
type TaskExecutor struct {
	client    client.Client
	taskQueue string
}

// NewTaskExecutor returns the executor starting Task workflows with c on taskQueue, where
// workers run Workflows.Register's workflows, the Activities and the TaskActivities.
func NewTaskExecutor(c client.Client, taskQueue string) *TaskExecutor {
	return &TaskExecutor{client: c, taskQueue: taskQueue}
}

// Start starts the Task workflow of task, under TaskWorkflowID(task.ID): a second Start of
// the same task finds that workflow and starts nothing. The workflow times out when the task
// expires.
func (e *TaskExecutor) Start(ctx context.Context, task toolmcp.Task, call runtime.Call) error {
	opts := client.StartWorkflowOptions{
		ID:                    TaskWorkflowID(task.ID),
		TaskQueue:             e.taskQueue,
		WorkflowIDReusePolicy: enumspb.WORKFLOW_ID_REUSE_POLICY_REJECT_DUPLICATE,
	}
	if !task.Expires.IsZero() {
		opts.WorkflowExecutionTimeout = max(time.Until(task.Expires), time.Second)
	}
	run := TaskRun{TaskID: task.ID, Owner: task.Owner, Call: Call{ID: call.ID, Name: call.Name, Args: call.Args, Session: call.Session}}
	if _, err := e.client.ExecuteWorkflow(ctx, opts, TaskWorkflow, run); err != nil {
		var started *serviceerror.WorkflowExecutionAlreadyStarted
		if errors.As(err, &started) {
			return nil
		}
		return fmt.Errorf("temporal: starting the workflow of task %s: %w", task.ID, err)
	}
	return nil
}

// Cancel cancels the Task workflow of task, which stops its call and stores it cancelled; a
// workflow that ended already is left as it is.
func (e *TaskExecutor) Cancel(ctx context.Context, task toolmcp.Task) error {
	err := e.client.CancelWorkflow(ctx, TaskWorkflowID(task.ID), "")
	var notFound *serviceerror.NotFound
	if err != nil && !errors.As(err, &notFound) {
		return fmt.Errorf("temporal: cancelling the workflow of task %s: %w", task.ID, err)
	}
	return nil
}

var _ toolmcp.TaskExecutor = (*TaskExecutor)(nil)
