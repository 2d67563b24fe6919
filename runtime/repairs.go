package runtime

import (
	"context"
	"errors"
	"maps"
	"slices"
	"sync"
)

// Repair records one change the registry (or a sanitizing middleware) made to what the model
// sent before validating it: which value, what kind of change, and the value before and
// after, shortened for logs. Repairs are opt-in (WithRepair); every one is listed in
// Result.Metadata[MetadataRepairs] and reported to the observer as an EventRepair.
type Repair struct {
	// Path is the JSON Pointer of the changed value, "" for the whole document or the tool
	// name.
	Path string
	// Kind names the change; runtime/repair defines the kinds it makes.
	Kind string
	// From and To are the value before and after, shortened.
	From, To string
}

// MetadataRepairs is the key of Result.Metadata under which the registry lists the []Repair
// made to a call.
const MetadataRepairs = "repairs"

// Repairer fixes the mistakes models make most when the tool's schema leaves no doubt about
// what was meant. runtime/repair implements it; WithRepair installs it.
type Repairer interface {
	// RepairName returns the registered name that name was meant to be, ok false when
	// there is none or more than one.
	RepairName(name string, names []string) (repaired string, ok bool)
	// RepairArgs returns the arguments repaired for tool and what was changed; no repairs
	// means nothing could be repaired. The registry calls it only for arguments the tool's
	// decoder refused, and validates what it returns in full.
	RepairArgs(tool *Tool, args []byte) (repaired []byte, repairs []Repair)
}

// WithRepair lets the registry repair calls the model got wrong in ways the schema makes
// unambiguous: a misspelled tool name that matches exactly one tool, and arguments the
// tool's decoder refused. Repaired arguments are validated in full, like any others; when
// they still fail, the model reads every problem, repaired ones included, and nothing runs.
// Valid calls are never touched, and cost nothing more.
func WithRepair(r Repairer) Option {
	return func(c *registryConfig) { c.repairer = r }
}

// ArgsFeedback writes what the model reads about arguments its tool refused: args are the
// arguments as the model sent them, err lists every problem.
type ArgsFeedback func(tool *Tool, args []byte, err *ArgsError) string

// WithArgsFeedback replaces the text of invalid-argument results by what f writes (for
// instance runtime/repair.Annotate: the model's own arguments with each wrong value marked).
// The result's Err still holds the *ArgsError.
func WithArgsFeedback(f ArgsFeedback) Option {
	return func(c *registryConfig) { c.feedback = f }
}

// NoteRepairs records repairs made to the current call, for a middleware that changes
// arguments before validation (a sanitizing filter): they join the call's
// Result.Metadata[MetadataRepairs] and go to the observer. ctx must be the one the
// middleware received; outside a call it does nothing.
func NoteRepairs(ctx context.Context, repairs ...Repair) {
	st, ok := ctx.Value(callKey{}).(*callState)
	if !ok || len(repairs) == 0 {
		return
	}
	var observer Observer
	if st.info.reg != nil {
		observer = st.info.reg.currentConfig().observer
	}
	st.noteRepairs(observer, repairs)
}

// repairLog holds the repairs of one call.
type repairLog struct {
	mu   sync.Mutex
	list []Repair
}

func (s *callState) noteRepairs(observer Observer, repairs []Repair) {
	log := s.repairs.Load()
	if log == nil {
		// Most calls are never repaired: the log is made for the first repair.
		s.repairs.CompareAndSwap(nil, &repairLog{})
		log = s.repairs.Load()
	}
	log.mu.Lock()
	log.list = append(log.list, repairs...)
	log.mu.Unlock()
	if observer != nil {
		e := event(s, EventRepair)
		e.Repairs = slices.Clone(repairs)
		observer.notify(s, e)
	}
}

// repairedName resolves a misspelled tool name through the configured Repairer.
func (r *Registry) repairedName(cfg *registryConfig, call *Call, names []string) (*toolEntry, Repair, bool) {
	if cfg.repairer == nil {
		return nil, Repair{}, false
	}
	name, ok := cfg.repairer.RepairName(call.Name, names)
	if !ok {
		return nil, Repair{}, false
	}
	e, _, _, ok := r.lookupCall(name)
	if !ok {
		return nil, Repair{}, false
	}
	fix := Repair{Kind: "tool_name", From: call.Name, To: name}
	call.Name = name
	return e, fix, true
}

// Repairer returns the registry's Repairer (WithRepair), or nil: adapters that need a tool
// before they call Invoke (runtime/xmlcall converts arguments by its schema) resolve a
// misspelled name with it. Invoke repairs the name again, and records it.
func (r *Registry) Repairer() Repairer {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.config().repairer
}

// ArgsFeedback returns the registry's ArgsFeedback (WithArgsFeedback), or nil: adapters that
// refuse arguments before Invoke (runtime/xmlcall, for values that do not convert) word
// their refusals with it too.
func (r *Registry) ArgsFeedback() ArgsFeedback {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return r.config().feedback
}

// bindRepairing binds the call's arguments; when the decoder refuses them and the registry
// repairs calls, it binds the repaired arguments instead (call.Args then holds them, so
// approval and the repeat guard see what runs). When that fails too, the model reads the
// repaired arguments' problems and every repair, and nothing runs.
//
// The failure is a pointer, nil when the call is bound: a Result is returned by value on the
// common path only when there is one to return.
func (r *Registry) bindRepairing(ctx context.Context, st *callState, cfg *registryConfig, tool *Tool, call *Call) (BoundCall, *Result) {
	bound, failed := bind(ctx, tool, st, call.Args)
	if failed == nil || failed.Kind != "" || !isArgsError(failed.Err) {
		return bound, failed
	}
	sent := call.Args
	if cfg.repairer != nil {
		if args, repairs := cfg.repairer.RepairArgs(tool, sent); len(repairs) > 0 {
			if b, again := bind(ctx, tool, st, args); again == nil {
				st.noteRepairs(cfg.observer, repairs)
				call.Args = args
				return b, nil
			} else if isArgsError(again.Err) {
				failed = failure(repairedFailure(tool.Name, *again, repairs))
			}
		}
	}
	var argsErr *ArgsError
	if cfg.feedback != nil && errors.As(failed.Err, &argsErr) {
		failed.Text = cfg.feedback(tool, sent, argsErr)
	}
	return nil, failed
}

func isArgsError(err error) bool {
	var argsErr *ArgsError
	return errors.As(err, &argsErr)
}

// repairedFailure lists, next to the problems left after repairing, the repairs themselves:
// they were mistakes too, and the model should not make them again.
func repairedFailure(name string, failed Result, repairs []Repair) Result {
	var argsErr *ArgsError
	errors.As(failed.Err, &argsErr)
	problems := make([]Problem, 0, len(repairs)+len(argsErr.Problems))
	for _, fix := range repairs {
		problems = append(problems, Problem{Path: fix.Path, Message: RepairMessage(fix)})
	}
	problems = append(problems, argsErr.Problems...)
	return bindErrorResult(name, &ArgsError{Tool: name, Problems: problems})
}

// RepairMessage words a repair as the mistake it fixed, for the model.
func RepairMessage(fix Repair) string {
	switch fix.Kind {
	case "markdown_fence":
		return "the arguments were wrapped in a Markdown code fence; send the JSON alone"
	case "trailing_comma":
		return "a comma before a closing } or ]; remove it"
	case "json_in_string":
		return "JSON was sent inside a string; send the " + fix.To + " itself, not quoted"
	case "number_as_string":
		return "a number was sent as the string " + fix.From + "; write " + fix.To + " without quotes"
	case "boolean_as_string":
		return "a boolean was sent as the string " + fix.From + "; write " + fix.To + " without quotes"
	case "null_for_optional":
		return "null for an optional property that cannot be null; leave the property out"
	case "tool_name":
		return "the tool is called " + fix.To + ", not " + fix.From
	}
	return fix.Kind + ": " + fix.From + " became " + fix.To
}

// withRepairs lists the call's repairs in the result's metadata.
func withRepairs(st *callState, res *Result) {
	log := st.repairs.Load()
	if log == nil {
		return
	}
	log.mu.Lock()
	repairs := log.list
	log.mu.Unlock()
	if len(repairs) == 0 {
		return
	}
	// A copy: a handler's Metadata map may be shared between its results.
	md := maps.Clone(res.Metadata)
	if md == nil {
		md = make(map[string]any, 1)
	}
	md[MetadataRepairs] = slices.Clone(repairs)
	res.Metadata = md
}
