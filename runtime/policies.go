package runtime

import "time"

// toolPolicies are a tool's policies resolved against one registry configuration: the
// tool's own setting where it has one, else the registry's, else the default. They are
// resolved once per tool and configuration (Add primes them; Use and RegisterFilter make a
// new configuration, and a Subset shares the entries under its own), not on every call.
type toolPolicies struct {
	cfg          *registryConfig // the configuration they were resolved against
	timeout      time.Duration   // of one attempt; 0: none
	retry        RetryPolicy
	maxArgs      int64 // bytes of the argument document
	maxArgsDepth int   // nesting of the argument document
	modelRetries int   // AskRetry budget per session
}

// policiesOf returns e's policies under cfg, resolving them on the first call under a new
// configuration.
func (e *toolEntry) policiesOf(cfg *registryConfig) *toolPolicies {
	if p := e.policies.Load(); p != nil && p.cfg == cfg {
		return p
	}
	t := &e.tool
	depth := cfg.maxArgsDepth
	if depth <= 0 {
		depth = DefaultMaxArgsDepth
	}
	p := &toolPolicies{cfg: cfg, timeout: cfg.timeoutOf(t), retry: cfg.retryOf(t),
		maxArgs: cfg.maxArgsOf(t), maxArgsDepth: depth, modelRetries: cfg.modelRetriesOf(t)}
	e.policies.Store(p)
	return p
}
