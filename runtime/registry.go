package runtime

import (
	"cmp"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/toolgen-go/toolgen/internal/suggest"
	"github.com/toolgen-go/toolgen/runtime/internal/canonical"
)

// ErrDuplicateTool is wrapped by the error of Registry.Add when a tool's name is already taken,
// by a registered tool or by another tool in the same call.
var ErrDuplicateTool = errors.New("duplicate tool name")

// ErrUnknownTool is wrapped by the Err of an unknown-tool result and by the error of
// Registry.Subset for a name the registry does not hold.
var ErrUnknownTool = errors.New("unknown tool")

// ErrNotBindable is returned by Tool.BindArgs for a tool that has nothing to bind its
// arguments with: neither generated nor given a Bind function (a client tool).
var ErrNotBindable = errors.New("the tool has no binding: it is neither generated nor given a Bind function")

// Registry holds tools by name and dispatches calls to them. It is safe for concurrent use:
// tools can be added while calls are being invoked. The zero value is an empty registry with
// default settings, ready to use.
type Registry struct {
	mu    sync.RWMutex
	cfg   *registryConfig // never changed in place: Use and RegisterFilter replace it
	tools map[string]*toolEntry
	names []string // the keys of tools, kept sorted so listings need no sort under the lock
	// table is what a call looks up, read without the lock: a copy of tools and cfg, made
	// under the lock by the first call after a change, which clears it (see currentTable).
	table atomic.Pointer[toolTable]

	sessMu   sync.Mutex
	sessions map[string]*sessionCounters

	approvalsOnce      sync.Once
	approvals          *MemoryApprovalStore // unless WithApprovalStore
	approversAbandoned abandonedApprovers   // approvers still running after their call ended

	keyOnce sync.Once
	key     [32]byte // signs approval request ids

	storeOnce sync.Once
	store     SessionStore

	resultsOnce sync.Once
	results     ResultStore

	changes hookSet[func()]                    // OnChange
	grants  hookSet[func(principals []string)] // OnGrantsChanged
}

// toolEntry is a registered tool and what the registry tracks about it across calls. A
// Subset shares its entries, so the bound on worker goroutines holds across toolkits.
type toolEntry struct {
	tool  Tool
	slots attemptSlots // attempts on worker goroutines, running or abandoned
	chain atomic.Pointer[middlewareChain]
	// policies are the tool's timeout, retry and limits under the configuration they name.
	policies atomic.Pointer[toolPolicies]

	defaultsOnce sync.Once
	defaults     *canonical.Defaults // of the input schema, for canonical arguments
}

// defaultConfig is the configuration of a zero Registry.
var defaultConfig = &registryConfig{}

// config returns the current configuration; the caller must hold r.mu.
func (r *Registry) config() *registryConfig {
	if r.cfg == nil {
		return defaultConfig
	}
	return r.cfg
}

// updateConfig replaces the configuration with a changed copy; the caller must hold r.mu.
func (r *Registry) updateConfig(change func(*registryConfig)) {
	c := *r.config()
	change(&c)
	r.cfg = &c
	r.table.Store(nil)
}

// toolTable is a registry's tools and configuration at one moment, never changed: what calls
// read without taking the registry's lock, which every call shared (two atomic adds on one
// cache line, for all the cores serving calls).
type toolTable struct {
	cfg   *registryConfig
	tools map[string]*toolEntry
	// scoped: some tool needs a scope (Tool.Scopes), so calls and listings look for a Grant.
	scoped bool
}

// currentTable returns the table of the registry as it is, made anew after a change. It is
// made under the write lock, so no change happens while it is copied, and every change clears
// it under the same lock: a table in place is never older than the last change.
func (r *Registry) currentTable() *toolTable {
	if t := r.table.Load(); t != nil {
		return t
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if t := r.table.Load(); t != nil {
		return t
	}
	t := &toolTable{cfg: r.config(), tools: maps.Clone(r.tools)}
	for _, e := range t.tools {
		t.scoped = t.scoped || len(e.tool.Scopes) > 0
	}
	r.table.Store(t)
	return t
}

// NewRegistry returns an empty registry configured by opts.
func NewRegistry(opts ...Option) *Registry {
	cfg := &registryConfig{}
	for _, opt := range opts {
		if opt != nil {
			opt(cfg)
		}
	}
	return &Registry{cfg: cfg}
}

// sessionStore returns the configured session store, or the registry's in-memory one.
func (r *Registry) sessionStore() SessionStore {
	if store := r.currentTable().cfg.store; store != nil {
		return store
	}
	return r.memoryStore()
}

// Add registers tools. It refuses a tool without a name, with a name that does not match
// ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$, with a name already registered or repeated within tools,
// a tool without Bind (unless it is a Client tool, which the caller executes), and a tool
// whose //tool:filters names a filter not registered with RegisterFilter. Add is
// atomic: when any tool is refused, none is added, and the error names every refused tool,
// one per line. errors.Is(err, ErrDuplicateTool) reports whether a name clash was among them.
func (r *Registry) Add(tools ...Tool) error {
	if err := r.add(tools); err != nil {
		return err
	}
	r.notifyChange()
	return nil
}

func (r *Registry) add(tools []Tool) error {
	r.mu.Lock()
	defer r.mu.Unlock()

	var errs []error
	seen := make(map[string]Tool, len(tools))
	for i, t := range tools {
		if err := checkTool(t, i); err != nil {
			errs = append(errs, err)
			continue
		}
		if err := checkFilters(t, r.config().filters); err != nil {
			errs = append(errs, err)
			continue
		}
		if e, taken := r.tools[t.Name]; taken {
			errs = append(errs, fmt.Errorf("tool %q: %w: already registered%s", t.Name, ErrDuplicateTool, origins(e.tool, t)))
			continue
		}
		if first, ok := seen[t.Name]; ok {
			errs = append(errs, fmt.Errorf("tool %q: %w: given more than once%s", t.Name, ErrDuplicateTool, origins(first, t)))
			continue
		}
		seen[t.Name] = t
	}
	if len(errs) > 0 {
		return &addError{errs: errs}
	}

	if r.tools == nil {
		r.tools = make(map[string]*toolEntry, len(tools))
	}
	for _, t := range tools {
		e := &toolEntry{tool: t}
		e.policiesOf(r.config())
		r.tools[t.Name] = e
		i, _ := slices.BinarySearch(r.names, t.Name)
		r.names = slices.Insert(r.names, i, t.Name)
	}
	r.table.Store(nil)
	return nil
}

// origins says where two tools of one name come from, when generated code said so: two
// packages may each declare a tool of a name, and only the registry sees both.
func origins(first, second Tool) string {
	if first.Origin == "" && second.Origin == "" {
		return ""
	}
	or := func(s string) string { return cmp.Or(s, "an unknown place") }
	return fmt.Sprintf(" (first from %s, then from %s; rename one with //tool:name)", or(first.Origin), or(second.Origin))
}

// addError lists every tool Add refused, under one heading, so the caller sees all mistakes
// at once instead of fixing them one run at a time.
type addError struct{ errs []error }

func (e *addError) Error() string {
	var b strings.Builder
	fmt.Fprintf(&b, "runtime: refused %d of the tools given to Add; none was added:", len(e.errs))
	for _, err := range e.errs {
		b.WriteString("\n- ")
		b.WriteString(err.Error())
	}
	return b.String()
}

func (e *addError) Unwrap() []error { return e.errs }

// checkTool reports what makes t unusable on its own; i is its position in Add's arguments,
// the only way to point at a tool without a name.
func checkTool(t Tool, i int) error {
	switch {
	case t.Name == "":
		return fmt.Errorf("tool #%d of Add: missing Name", i+1)
	case !validName(t.Name):
		return fmt.Errorf("tool %q: invalid name: must match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$", t.Name)
	case !t.bindable() && !t.Client:
		return fmt.Errorf("tool %q: missing Bind function", t.Name)
	}
	if err := checkScopes(t.Scopes); err != nil {
		return fmt.Errorf("tool %q: %w", t.Name, err)
	}
	return nil
}

// checkFilters reports the filters t names that are not registered.
func checkFilters(t Tool, filters map[string]Middleware) error {
	var unknown []string
	known := slices.Sorted(maps.Keys(filters))
	for _, name := range t.Filters {
		if _, ok := filters[name]; !ok {
			unknown = append(unknown, suggest.Quoted(name, known))
		}
	}
	if len(unknown) == 0 {
		return nil
	}
	return fmt.Errorf("tool %q: unknown filter %s: register filters with RegisterFilter before adding the tools that name them", t.Name, strings.Join(unknown, ", "))
}

// validName reports whether name matches ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$.
func validName(name string) bool {
	if name == "" || len(name) > MaxToolNameLength {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c == '_':
		case i > 0 && (c >= '0' && c <= '9' || c == '-'):
		default:
			return false
		}
	}
	return true
}

// Tool returns the tool registered under name.
func (r *Registry) Tool(name string) (Tool, bool) {
	r.mu.RLock()
	defer r.mu.RUnlock()
	e, ok := r.tools[name]
	if !ok {
		return Tool{}, false
	}
	return e.tool, true
}

// Names returns the names of all tools, sorted.
func (r *Registry) Names() []string {
	r.mu.RLock()
	defer r.mu.RUnlock()
	return slices.Clone(r.names)
}

// Tools returns all tools, sorted by name.
func (r *Registry) Tools() []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	out := make([]Tool, 0, len(r.names))
	for _, name := range r.names {
		out = append(out, r.tools[name].tool)
	}
	return out
}

// ByTag returns the tools that have any of tags, sorted by name. With no tags it returns none.
func (r *Registry) ByTag(tags ...string) []Tool {
	r.mu.RLock()
	defer r.mu.RUnlock()
	var out []Tool
	for _, name := range r.names {
		t := r.tools[name].tool
		if slices.ContainsFunc(t.Tags, func(tag string) bool { return slices.Contains(tags, tag) }) {
			out = append(out, t)
		}
	}
	return out
}

// Subset returns a new registry, with this registry's options, middleware and filters,
// holding just the named tools: the toolkit of one agent. Sessions, approval requests and the
// in-memory session state are the subset's own. Repeated names count once. When a name is unknown, the error names
// every unknown name, with a "did you mean" hint where one is close, and no registry is returned.
// The subset is independent: tools added to either registry later do not appear in the other.
func (r *Registry) Subset(names ...string) (*Registry, error) {
	r.mu.RLock()
	defer r.mu.RUnlock()

	sub := &Registry{cfg: r.cfg, tools: make(map[string]*toolEntry, len(names))}
	var unknown []string
	for _, name := range names {
		t, ok := r.tools[name]
		if !ok {
			unknown = append(unknown, suggest.Quoted(name, r.names))
			continue
		}
		if _, dup := sub.tools[name]; !dup {
			sub.tools[name] = t
			sub.names = append(sub.names, name)
		}
	}
	if len(unknown) > 0 {
		return nil, fmt.Errorf("runtime: subset: %w: %s", ErrUnknownTool, strings.Join(unknown, ", "))
	}
	slices.Sort(sub.names)
	return sub, nil
}

// lookupCall returns the entry of the tool called name and the configuration its call runs
// under, or, when there is none, a snapshot of the sorted names for the unknown-tool message.
// A known tool is found in the lock-free table (currentTable); an unknown one is looked up
// again under the read lock, which serves the names too, so the message lists the tools that
// were registered when the lookup failed.
func (r *Registry) lookupCall(name string) (*toolEntry, *registryConfig, []string, bool) {
	t := r.currentTable()
	if e, ok := t.tools[name]; ok {
		return e, t.cfg, nil, true
	}
	r.mu.RLock()
	e, ok := r.tools[name]
	cfg := r.config()
	var names []string
	if !ok {
		names = slices.Clone(r.names)
	}
	r.mu.RUnlock()
	return e, cfg, names, ok
}
