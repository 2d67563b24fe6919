// Package temporal runs toolgen tools as durable Temporal activities, so that long or
// important tool calls survive a crash, and a call waiting for a person's approval waits in
// a workflow, for as long as it takes, across worker restarts.
//
// Workers run the activities; workflows run calls through Workflows:
//
//	acts, err := tooltemporal.NewActivities(tools, runtime.WithSessionStore(store))
//	flows := tooltemporal.NewWorkflows(tools, tooltemporal.Options{})
//	w := worker.New(c, "tools", worker.Options{})
//	acts.Register(w)
//	flows.Register(w) // the ready-made workflow: one model turn's calls
//
//	// in a workflow of your own:
//	results := flows.InvokeAll(ctx, calls)
//
// # Directives
//
// ActivityOptions maps a tool's directives: //tool:timeout becomes the start-to-close
// timeout (plus a second of grace, so the runtime's own deadline reports a timeout the model
// can read; //tool:timeout none is bounded by Options.NoTimeoutLimit), //tool:retry the
// retry policy (maximum attempts, initial interval, backoff, maximum interval; Temporal adds
// no jitter), and every activity heartbeats while its handler runs, so a dead worker is
// noticed within Options.Heartbeat. A handler's runtime.Progress records a heartbeat with
// ProgressDetails, which a retry can resume from.
//
// An activity runs one attempt through a registry; Temporal retries. Failures are
// application errors whose type is the runtime.ErrorKind: invalid arguments, denials, limits
// and errors marked runtime.Permanent are non-retryable. An attempt cut short by its worker
// stopping (a rolling restart) is retryable, so it runs again on another worker. The final
// failure becomes a Result written for the model, as Registry.Invoke would have made it.
//
// # Approval
//
// A //tool:confirm call is validated in the workflow, listed by the PendingQuery, and waits
// for an Approval sent with the ApprovalSignal (client.SignalWorkflow(ctx, id, "",
// tooltemporal.ApprovalSignal, tooltemporal.Approval{CallID: …, Approved: true, By: …})).
// The wait is workflow state: workers may restart, and the call runs exactly once, as an
// activity whose input carries the decision; the activity's registry approves nothing else.
// A denial is a result the model reads; Options.ApprovalTimeout denies calls nobody decided.
//
// # MCP tasks
//
// TaskExecutor runs the MCP tasks of a runtime/mcp server durably (toolmcp.WithTaskExecutor):
// the server stores the task, then Start starts the Task workflow under TaskWorkflowID(task
// id) (a second Start of the task starts nothing), which runs the call as Invoke does and
// stores its result in the task store with the StoreTaskActivity, so that tasks/get on any
// replica, or after the replica that made the task died, returns it:
//
//	srv := toolmcp.HTTPHandler(reg, toolmcp.WithTaskStore(store),
//		toolmcp.WithTaskExecutor(tooltemporal.NewTaskExecutor(c, "tools")))
//	// on the workers, besides acts.Register(w) and flows.Register(w):
//	tooltemporal.NewTaskActivities(store).Register(w)
//
// A tool error is a completed task, as without Temporal; tasks/cancel cancels the workflow,
// which stores the task cancelled. The workflow times out when the task expires.
//
// # Batches
//
// InvokeAll runs one turn's calls with Registry.InvokeAll's semantics: concurrently, a
// //tool:sequential call alone as a barrier, results in call order.
//
// The package is its own Go module, so programs that do not import it never download the
// Temporal SDK. Its tests use the SDK's test suite; the module runtime/temporal/servertest
// tests it against a real Temporal server in-process, a worker restarting while an approval
// is pending included.
package temporal
