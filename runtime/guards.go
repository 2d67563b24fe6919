package runtime

import (
	"context"
	"errors"
	"fmt"
	"sync"
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
func (r *Registry) admit(cfg *registryConfig, tool *Tool, session string) (Result, bool) {
	perTool, total := cfg.callLimitOf(tool), cfg.guard.MaxCalls
	if perTool <= 0 && total <= 0 {
		return Result{}, true
	}
	c := r.counters(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	if total > 0 && c.total >= total {
		return limitResult(fmt.Sprintf("This session reached its limit of %d tool calls; %s was not run. Answer with the information you already have.", total, tool.Name),
			fmt.Errorf("%w: %d calls in session %q", ErrCallLimit, total, session)), false
	}
	if perTool > 0 && c.perTool[tool.Name] >= perTool {
		return limitResult(fmt.Sprintf("%s was already called %d times in this session, its limit; it was not run again. Use the results you have.", tool.Name, perTool),
			fmt.Errorf("%w: %d calls of %q in session %q", ErrCallLimit, perTool, tool.Name, session)), false
	}
	c.total++
	c.perTool[tool.Name]++
	return Result{}, true
}

// repeated reports whether a call with key already succeeded in session.
func (r *Registry) repeated(session, key string) bool {
	c := r.counters(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.succeeded[key]
}

func (r *Registry) rememberSuccess(session, key string) {
	c := r.counters(session)
	c.mu.Lock()
	defer c.mu.Unlock()
	c.succeeded[key] = true
}

func repeatResult(tool, session string) Result {
	return limitResult(fmt.Sprintf("%s was already called with exactly these arguments in this session, and it succeeded; it was not run again. Use that earlier result.", tool),
		fmt.Errorf("%w: repeated call of %q in session %q", ErrCallLimit, tool, session))
}

// spendModelRetry counts one AskRetry of tool in session and reports whether the budget
// allowed it.
func (r *Registry) spendModelRetry(tool, session string, budget int) bool {
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

// canonicalArgs is the canonical form (see canonical.go) of the arguments the model sent,
// which the tool's decoder has accepted: defaults applied, keys sorted, so that two calls
// meaning the same thing compare equal and an approval covers exactly what runs.
func (e *toolEntry) canonicalArgs(raw []byte) ([]byte, error) {
	e.defaultsOnce.Do(func() { e.defaults = defaultsOf(e.tool.InputSchema) })
	return canonicalJSON(normalizeArgs(raw), e.defaults)
}

// callIdentity identifies a call by tool and canonical arguments.
func callIdentity(tool string, canonical []byte) string {
	return tool + "\x00" + string(canonical)
}
