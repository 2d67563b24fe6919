package runtime

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"sync"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// sessionCounters is what the loop guards and AskRetry budgets remember of one session.
type sessionCounters struct {
	mu           sync.Mutex
	total        int
	perTool      map[string]int
	succeeded    map[string]bool // canonical call keys of successful calls
	modelRetries map[string]int
}

// counters returns the counters of session, creating them on first use.
func (r *Registry) counters(session string) *sessionCounters {
	r.sessMu.Lock()
	defer r.sessMu.Unlock()
	if r.sessions == nil {
		r.sessions = make(map[string]*sessionCounters)
	}
	c := r.sessions[session]
	if c == nil {
		c = &sessionCounters{perTool: map[string]int{}, succeeded: map[string]bool{}, modelRetries: map[string]int{}}
		r.sessions[session] = c
	}
	return c
}

// EndSession forgets a session: its call counts, AskRetry budgets, repeated-call memory,
// approval requests and state in the session store. Call it when a conversation ends;
// otherwise what the registry remembers of sessions grows with their number.
func (r *Registry) EndSession(ctx context.Context, session string) error {
	r.sessMu.Lock()
	delete(r.sessions, session)
	r.sessMu.Unlock()

	err := r.approvalStore(r.currentConfig()).ClearSession(ctx, session)
	return errors.Join(err, r.sessionStore().Clear(ctx, session))
}

// admit counts a call against the session's limits, or refuses it when a limit is reached.
// Sessions are only tracked when some limit applies, so calls without limits cost nothing.
func (r *Registry) admit(ctx context.Context, cfg *registryConfig, tool *Tool, session string) (refused *Result) {
	perTool, total := cfg.callLimitOf(tool), cfg.guard.MaxCalls
	if perTool <= 0 && total <= 0 {
		return nil
	}
	limit := -1
	if shared, ok := cfg.store.(SharedCounters); ok {
		var err error
		limit, err = shared.Acquire(ctx, session, []Counter{{Key: callsKey, Limit: total}, {Key: callsKey + "." + tool.Name, Limit: perTool}})
		if err != nil {
			return failure(guardUnavailable(tool.Name, err))
		}
	} else {
		c := r.counters(session)
		c.mu.Lock()
		switch {
		case total > 0 && c.total >= total:
			limit = 0
		case perTool > 0 && c.perTool[tool.Name] >= perTool:
			limit = 1
		default:
			c.total++
			c.perTool[tool.Name]++
		}
		c.mu.Unlock()
	}
	switch limit {
	case 0:
		return failure(limitResult(fmt.Sprintf("This session reached its limit of %s; %s was not run. Answer with the information you already have.", plural.Of(total, "tool call"), tool.Name),
			fmt.Errorf("%w: %s in session %q", ErrCallLimit, plural.Of(total, "call"), session)))
	case 1:
		return failure(limitResult(fmt.Sprintf("%s was already called %s in this session, its limit; it was not run again. Use the results you have.", tool.Name, plural.Of(perTool, "time")),
			fmt.Errorf("%w: %s of %q in session %q", ErrCallLimit, plural.Of(perTool, "call"), tool.Name, session)))
	}
	return nil
}

// repeated reports whether a call with key already succeeded in session.
func (r *Registry) repeated(ctx context.Context, cfg *registryConfig, session, key string) (bool, error) {
	if _, ok := cfg.store.(SharedCounters); ok {
		_, seen, err := cfg.store.Get(ctx, session, succeededKey(key))
		return seen, err
	}
	c := r.counters(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.succeeded[key], nil
}

func (r *Registry) rememberSuccess(ctx context.Context, cfg *registryConfig, session, key string) {
	if _, ok := cfg.store.(SharedCounters); ok {
		// Best effort: when it fails, a later identical call runs again, as without the guard.
		_ = cfg.store.Set(ctx, session, succeededKey(key), true)
		return
	}
	c := r.counters(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.succeeded[key] = true
}

// SharedCounters is implemented by a SessionStore that keeps the loop guards' counts (call
// limits, AskRetry budgets) itself, so that registries sharing the store, such as replicas
// of a server behind a load balancer, share the limits of each session. With such a store the
// registry also remembers successful calls (LoopGuard.RefuseRepeats) in the store, with Set
// under keys that start with "toolgen.". Clear forgets a session's counters with its state.
type SharedCounters interface {
	// Acquire adds one to each of session's counters when every one is below its Limit
	// (a Limit <= 0 never refuses), and returns -1; otherwise it changes nothing and returns
	// the index of the first counter at its limit. It is atomic across every registry
	// sharing the store.
	Acquire(ctx context.Context, session string, counters []Counter) (refused int, err error)
}

// Counter names one count of a session for SharedCounters.Acquire, and its limit.
type Counter struct {
	Key   string
	Limit int
}

// The keys of the registry's counts in a SharedCounters store.
const (
	callsKey      = "toolgen.calls"      // all calls; "toolgen.calls.<tool>" per tool
	modelRetryKey = "toolgen.askretry."  // + tool: AskRetry guidance given
	succeededPref = "toolgen.succeeded." // + hash of the call identity: a successful call
)

// succeededKey is the store key remembering a successful call: a hash, so that its length
// does not grow with the arguments.
func succeededKey(identity string) string {
	sum := sha256.Sum256([]byte(identity))
	return succeededPref + base64.RawURLEncoding.EncodeToString(sum[:])
}

// guardUnavailable refuses a call whose limits could not be checked: limits fail closed.
// A store that lost the session's counters says so, and the call is not run either: the
// model learns that the session's state is gone before anything acts on a fresh one.
func guardUnavailable(tool string, err error) Result {
	var lost *ModelError
	if errors.Is(err, ErrSessionStateLost) && errors.As(err, &lost) {
		return Result{
			Text:    fmt.Sprintf("%s was not run: %s.", tool, lost.Message),
			IsError: true,
			Err:     fmt.Errorf("tool %q: loop guard store: %w", tool, err),
			Kind:    lost.Kind,
		}
	}
	return Result{
		Text:    fmt.Sprintf("%s was not run: its call limits could not be checked. Try again later.", tool),
		IsError: true,
		Err:     fmt.Errorf("tool %q: loop guard store: %w", tool, err),
		Kind:    KindUnavailable,
	}
}

func repeatResult(tool, session string) Result {
	return limitResult(fmt.Sprintf("%s was already called with exactly these arguments in this session, and it succeeded; it was not run again. Use that earlier result.", tool),
		fmt.Errorf("%w: repeated call of %q in session %q", ErrCallLimit, tool, session))
}

// spendModelRetry counts one AskRetry of tool in session and reports whether the budget
// allowed it. A shared store that fails counts as a spent budget.
func (r *Registry) spendModelRetry(ctx context.Context, cfg *registryConfig, tool, session string, budget int) bool {
	if shared, ok := cfg.store.(SharedCounters); ok {
		if budget <= 0 {
			return false
		}
		refused, err := shared.Acquire(ctx, session, []Counter{{Key: modelRetryKey + tool, Limit: budget}})
		return err == nil && refused < 0
	}
	c := r.counters(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.modelRetries[tool] >= budget {
		return false
	}
	c.modelRetries[tool]++
	return true
}

func limitResult(text string, err error) Result {
	return Result{Text: text, IsError: true, Err: err, Kind: KindLimit}
}

// canonicalArgs is the canonical form (runtime/internal/canonical) of the arguments the model sent,
// which the tool's decoder has accepted: defaults applied, keys sorted, so that two calls
// meaning the same thing compare equal and an approval covers exactly what runs.
func (e *toolEntry) canonicalArgs(raw []byte) ([]byte, error) {
	e.defaultsOnce.Do(func() { e.defaults = canonical.DefaultsOf(e.tool.InputSchema) })
	return canonical.JSON(canonical.Normalize(raw), e.defaults)
}

// callIdentity identifies a call by tool and canonical arguments.
func callIdentity(tool string, canonical []byte) string {
	return tool + "\x00" + string(canonical)
}
