package mount

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// Bounds on what a mounted server can make this process hold (docs/limits.md).
const (
	MaxTools            = 1000     // tools of one server; more are left out, listed in Skipped
	MaxListPages        = 100      // tools/list pages read per listing
	MaxListBytes        = 16 << 20 // of the tools of one listing, as JSON; the tools past it are left out
	MaxDescriptionBytes = 8 << 10  // of a tool's description; longer ones are cut
	MaxTitleBytes       = 256      // of a tool's title
	MaxContentItems     = 256      // content items of one result; more are counted, not kept
	MaxMessageBytes     = 16 << 20 // of one message from the server (the go-sdk's line and event caps)
	MaxProgressMessage  = 512      // bytes of a progress message passed on
	MaxErrorText        = 2 << 10  // bytes of a protocol error's message a model reads
	MaxElicitations     = 16       // elicitations of one call passed to Options.Elicit; more are refused
	MaxIcons            = 8        // icons of one tool passed on; more are left out
	MaxIconSizes        = 8        // sizes of one icon; an icon with more is left out
)

// Server says how to reach an MCP server: a command run over stdio, or a streamable HTTP
// endpoint, or (tests, in-process servers) a transport per connection.
type Server struct {
	// Name names the server in tool origins, errors and list_mcp_servers; required.
	Name string
	// Command runs the server over stdio: the program and its arguments. Env is added to this
	// process's environment; Dir is the working directory; the server's stderr goes to Stderr
	// (nil: discarded).
	Command []string
	Env     []string
	Dir     string
	Stderr  io.Writer
	// URL is a streamable HTTP endpoint. Headers are sent with every request to URL's origin
	// (an Authorization header, an API key), not with a request the server redirects to
	// another scheme, host or port; HTTPClient, when set, sends them (its Transport is
	// wrapped, never changed).
	URL        string
	Headers    map[string]string
	HTTPClient *http.Client
	// OAuth, when set, authorizes the requests to URL (OAuth 2.1, as MCP specifies): it gives
	// each request its token, and on a 401 or 403 runs the authorization and the request is
	// sent again. The go-sdk's auth.NewAuthorizationCodeHandler is one: metadata discovery,
	// client registration (pre-registered, a client ID metadata document, or dynamic), PKCE,
	// scopes and refresh; its AuthorizationCodeFetcher takes the user through the
	// authorization page. The server's metadata names the URLs the handler fetches: for a
	// server you do not trust, give the handler an http.Client that refuses private
	// addresses (AuthorizationCodeHandlerConfig.Client).
	OAuth auth.OAuthHandler
	// Dial returns a new transport for each connection (the first and every reconnection):
	// an in-process server (mcp.NewInMemoryTransports) or a transport of your own.
	Dial func(ctx context.Context) (mcp.Transport, error)
}

// Options set the policies of a server's tools; the zero value is usable.
type Options struct {
	// Prefix is put before each tool's name in the registry; "" means the server's Name and
	// an underscore ("files_read_file"), unless NoPrefix (the server's names as they are: a
	// proxy of one server). A name that does not make a valid tool name is left out (Skipped).
	Prefix   string
	NoPrefix bool
	// Namespace, when set, is the tools' OpenAI tool-search namespace (runtime.Tool.Namespace).
	Namespace string
	// Confirm lists tools (by the server's names) that need approval whatever their hints;
	// Auto lists tools that run without it although their hints say destructive. ConfirmAll
	// makes every tool need approval.
	Confirm, Auto []string
	ConfirmAll    bool
	// Timeout bounds one call (runtime.Tool.Timeout; 0: the registry's default).
	Timeout time.Duration
	// MaxResult caps a result's text (runtime.Tool.MaxResult; 0: the registry's default);
	// longer ones are offloaded to the registry's result store.
	MaxResult int64
	// Defer keeps the tools out of the model's context until a tool search finds them
	// (runtime.Tool.Deferred); DeferAbove does it only for a server with more tools than that.
	Defer      bool
	DeferAbove int
	// Scopes are the OAuth scopes a caller must hold, every one, to see and call any of the
	// server's tools in the registry (runtime.Tool.Scopes, runtime.Grant); ToolScopes adds,
	// by the server's tool names, those one tool needs besides. The server itself is not
	// told: the mount holds one connection for every caller, so the registry is what keeps a
	// caller from the tools it may not use. Mount refuses a scope that is not a scope token.
	Scopes     []string
	ToolScopes map[string][]string
	// Strict leaves out tools whose input schema is outside runtime/schematool's subset,
	// instead of validating their arguments with a general JSON Schema validator.
	Strict bool
	// ReconnectDelay is the first wait before reconnecting (doubled up to MaxReconnectDelay
	// while attempts fail); 0: 100ms and 30s.
	ReconnectDelay, MaxReconnectDelay time.Duration
	// KeepAlive pings the server at this interval and treats a server that does not answer as
	// gone (then reconnects); 0: no pings (a stdio server's exit and a closed HTTP session
	// are noticed without them).
	KeepAlive time.Duration
	// Logger reports reconnections and tools left out; nil: slog.Default().
	Logger *slog.Logger
	// Elicit, when set, answers the server's elicitations (its questions for the user): the
	// mount then declares the elicitation capability, and Elicit gets each question with the
	// ctx of the registry call it belongs to (so ElicitThroughClient asks the user of the MCP
	// call being served). Only questions that can be tied to their call are passed on: those
	// a server on protocol 2026-07-28 returns as the call's input-required result. A server on
	// an older protocol sends elicitation/create on its own, which names no call: it gets an
	// error, unless ElicitUntied. Elicit may be called concurrently (a result can ask several
	// questions at once), at most MaxElicitations times per call; the wait for an answer
	// counts in the call's Timeout. nil: no elicitation capability is declared.
	Elicit func(ctx context.Context, params *mcp.ElicitParams) (*mcp.ElicitResult, error)
	// ElicitUntied passes to Elicit the questions that name no call as well (a server's
	// elicitation/create on protocols before 2026-07-28), with a ctx that carries no call
	// (runtime.CallInfoFrom finds none), at most MaxElicitations at once. For a host with one
	// user, such as a command-line agent, where every question is that user's; a host serving
	// several users leaves it off, as the question does not say whose it is
	// (ElicitThroughClient cancels such questions anyway).
	ElicitUntied bool
	// Observer, when set, observes every request and notification the mount sends the
	// server, as toolmcp.WithRequestObserver does on a server: runtime/otel's ClientObserver
	// records the MCP conventions' client spans and writes their trace context into the
	// request's _meta, so that the server's spans join the host's trace. It runs on the
	// goroutine sending the request, with its ctx (a tool call's: its execute_tool span).
	Observer toolmcp.RequestObserver
}

// Skipped is a tool of the server that is not in the registry, and why.
type Skipped struct {
	Tool   string // the server's name for it (cut when long)
	Reason string
}

// Mounted is a server whose tools are in a registry. Close removes them and ends the
// connection.
type Mounted struct {
	server Server
	opts   Options
	reg    *runtime.Registry
	log    *slog.Logger
	client *mcp.Client

	mu        sync.Mutex
	session   *mcp.ClientSession // nil while disconnected
	tools     map[string]*remoteTool
	skipped   []Skipped
	progress  map[string]func(*mcp.ProgressNotificationParams)
	nextToken uint64

	changed chan struct{} // tools/list_changed, coalesced
	untied  chan struct{} // the questions naming no call being asked now (Options.ElicitUntied)
	ctx     context.Context
	cancel  context.CancelFunc
	done    chan struct{}
}

// Mount connects to the server, lists its tools and adds them to reg under the options'
// policies. It returns once the tools are in the registry, or with the error that kept the
// first connection from being made. From then on the mount follows tools/list_changed and
// reconnects when the connection drops, until Close or ctx ends.
func Mount(ctx context.Context, reg *runtime.Registry, s Server, o Options) (*Mounted, error) {
	if s.Name == "" || !validName(s.Name) {
		return nil, fmt.Errorf("mount: the server needs a Name matching %s", namePattern)
	}
	if n := boolInt(len(s.Command) > 0) + boolInt(s.URL != "") + boolInt(s.Dial != nil); n != 1 {
		return nil, fmt.Errorf("mount %s: give exactly one of Command, URL or Dial", s.Name)
	}
	if o.Prefix == "" && !o.NoPrefix {
		o.Prefix = s.Name + "_"
	}
	for _, scopes := range append([][]string{o.Scopes}, slices.Collect(maps.Values(o.ToolScopes))...) {
		for _, sc := range scopes {
			if !runtime.ValidScope(sc) {
				return nil, fmt.Errorf("mount %s: invalid scope %q: a scope token (RFC 6749 §3.3) is printable ASCII but space, '\"' and '\\'", s.Name, sc)
			}
		}
	}
	if o.ReconnectDelay <= 0 {
		o.ReconnectDelay = 100 * time.Millisecond
	}
	if o.MaxReconnectDelay <= 0 {
		o.MaxReconnectDelay = 30 * time.Second
	}
	m := &Mounted{server: s, opts: o, reg: reg, log: o.Logger, tools: map[string]*remoteTool{},
		progress: map[string]func(*mcp.ProgressNotificationParams){}, changed: make(chan struct{}, 1), done: make(chan struct{}), untied: make(chan struct{}, MaxElicitations)}
	if m.log == nil {
		m.log = slog.Default()
	}
	m.log = m.log.With("mcp_server", s.Name)
	m.client = mcp.NewClient(&mcp.Implementation{Name: "toolgen-mount", Version: "1"}, &mcp.ClientOptions{
		Capabilities: &mcp.ClientCapabilities{},
		ToolListChangedHandler: func(context.Context, *mcp.ToolListChangedRequest) {
			select {
			case m.changed <- struct{}{}:
			default: // a listing is already due: it will see this change too
			}
		},
		ProgressNotificationHandler: m.onProgress,
		ElicitationHandler:          m.elicitationHandler(),
		KeepAlive:                   o.KeepAlive,
	})
	if o.Observer != nil {
		m.client.AddSendingMiddleware(m.observeSending)
	}
	m.ctx, m.cancel = context.WithCancel(context.WithoutCancel(ctx))
	cs, err := m.connect(ctx)
	if err != nil {
		m.cancel()
		return nil, fmt.Errorf("mount %s: %w", s.Name, err)
	}
	if err := m.sync(ctx, cs); err != nil {
		cs.Close()
		m.cancel()
		m.removeAll()
		return nil, fmt.Errorf("mount %s: %w", s.Name, err)
	}
	go m.run(cs)
	if ctx.Done() != nil {
		go func() {
			select {
			case <-ctx.Done():
				m.Close()
			case <-m.done:
			}
		}()
	}
	return m, nil
}

// Name returns the server's name.
func (m *Mounted) Name() string { return m.server.Name }

// Connected reports whether the server is connected now (calls made while it is not are
// error results saying so, for the model to try later).
func (m *Mounted) Connected() bool {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.session != nil
}

// Tools returns the registry names of the server's tools, sorted.
func (m *Mounted) Tools() []string {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Sorted(maps.Keys(m.tools))
}

// ToolName returns the registry name of the server's tool remote.
func (m *Mounted) ToolName(remote string) (string, bool) {
	name := m.opts.Prefix + remote // as build names it
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.tools[name]; !ok {
		return "", false
	}
	return name, true
}

// Skipped returns the server's tools left out at the last listing, and why.
func (m *Mounted) Skipped() []Skipped {
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.skipped)
}

// Close ends the connection, stops following the server and removes its tools from the
// registry. Calls running end with the connection. It is safe to call more than once.
func (m *Mounted) Close() error {
	m.cancel()
	<-m.done
	m.removeAll()
	return nil
}

func (m *Mounted) removeAll() {
	m.mu.Lock()
	names := slices.Collect(maps.Keys(m.tools))
	clear(m.tools)
	m.mu.Unlock()
	m.reg.Remove(names...)
}

// connect makes one connection.
func (m *Mounted) connect(ctx context.Context) (*mcp.ClientSession, error) {
	t, err := m.transport(ctx)
	if err != nil {
		return nil, err
	}
	cs, err := m.client.Connect(ctx, t, nil)
	if err != nil {
		return nil, err
	}
	m.mu.Lock()
	m.session = cs
	m.mu.Unlock()
	return cs, nil
}

func (m *Mounted) transport(ctx context.Context) (mcp.Transport, error) {
	s := m.server
	switch {
	case s.Dial != nil:
		return s.Dial(ctx)
	case len(s.Command) > 0:
		cmd := exec.Command(s.Command[0], s.Command[1:]...)
		cmd.Dir = s.Dir
		if len(s.Env) > 0 {
			cmd.Env = append(os.Environ(), s.Env...)
		}
		cmd.Stderr = s.Stderr
		return &mcp.CommandTransport{Command: cmd}, nil
	}
	return &mcp.StreamableClientTransport{Endpoint: s.URL, HTTPClient: limitedClient(s.HTTPClient, s.URL, s.Headers),
		MaxEventSize: MaxMessageBytes, OAuthHandler: s.OAuth}, nil
}

// run follows the server until Close: it relists on tools/list_changed, and reconnects when
// the connection ends.
func (m *Mounted) run(cs *mcp.ClientSession) {
	defer close(m.done)
	for {
		ended := make(chan struct{})
		go func() { cs.Wait(); close(ended) }()
		m.follow(cs, ended)
		m.mu.Lock()
		m.session = nil
		m.mu.Unlock()
		cs.Close()
		<-ended
		if m.ctx.Err() != nil {
			return
		}
		m.log.Warn("mcp server disconnected; reconnecting")
		if cs = m.reconnect(); cs == nil {
			return
		}
	}
}

// follow relists the tools on each tools/list_changed until the connection ends or Close.
func (m *Mounted) follow(cs *mcp.ClientSession, ended <-chan struct{}) {
	for {
		select {
		case <-m.ctx.Done():
			return
		case <-ended:
			return
		case <-m.changed:
			if err := m.sync(m.ctx, cs); err != nil && m.ctx.Err() == nil {
				m.log.Warn("mcp server: listing tools failed", "err", err)
			}
		}
	}
}

// reconnect connects again, waiting longer after each failure, and lists the tools; nil
// after Close.
func (m *Mounted) reconnect() *mcp.ClientSession {
	delay := m.opts.ReconnectDelay
	for {
		select {
		case <-m.ctx.Done():
			return nil
		case <-time.After(delay):
		}
		ctx, cancel := context.WithTimeout(m.ctx, max(30*time.Second, m.opts.MaxReconnectDelay))
		cs, err := m.connect(ctx)
		if err == nil {
			err = m.sync(ctx, cs)
			if err != nil {
				cs.Close()
			}
		}
		cancel()
		if err == nil {
			m.log.Info("mcp server reconnected")
			return cs
		}
		m.log.Warn("mcp server: reconnecting failed", "err", err, "retry_in", delay)
		delay = min(delay*2, m.opts.MaxReconnectDelay)
	}
}

// sync lists the server's tools and makes the registry hold them: new ones added, changed
// ones replaced, gone ones removed.
func (m *Mounted) sync(ctx context.Context, cs *mcp.ClientSession) error {
	listed, skipped, err := list(ctx, cs, m.log)
	if err != nil {
		return err
	}
	// Only sync changes m.tools (it runs on one goroutine at a time), so old is read once.
	m.mu.Lock()
	old := m.tools
	m.mu.Unlock()
	deferred := m.opts.Defer || m.opts.DeferAbove > 0 && len(listed) > m.opts.DeferAbove
	next := map[string]*remoteTool{}
	kept := map[string]*remoteTool{}
	var added []runtime.Tool
	for _, l := range listed {
		t, definition := l.tool, l.definition
		name := m.opts.Prefix + t.Name
		if _, dup := next[name]; dup {
			skipped = append(skipped, Skipped{Tool: cut(t.Name, 128), Reason: "listed twice"})
			continue
		}
		// A tool listed as before keeps its compiled schemas: a server sending
		// tools/list_changed over and over does not make every schema compile again.
		if o, ok := old[name]; ok && o.definition == string(definition) && o.tool.Deferred == deferred {
			next[name], kept[name] = o, o
			continue
		}
		rt, err := m.build(t, string(definition), deferred)
		if err != nil {
			skipped = append(skipped, Skipped{Tool: cut(t.Name, 128), Reason: err.Error()})
			continue
		}
		next[name] = rt
		added = append(added, rt.tool)
	}
	var gone []string // removed, or replaced by a changed definition
	for name := range old {
		if _, ok := kept[name]; !ok {
			gone = append(gone, name)
		}
	}

	m.reg.Remove(gone...)
	for _, t := range added {
		if err := m.reg.Add(t); err != nil {
			skipped = append(skipped, Skipped{Tool: next[t.Name].remote, Reason: err.Error()})
			continue
		}
		kept[t.Name] = next[t.Name]
	}
	for _, s := range skipped {
		m.log.Warn("mcp server: tool left out", "tool", s.Tool, "reason", s.Reason)
	}
	m.mu.Lock()
	m.tools, m.skipped = kept, skipped
	m.mu.Unlock()
	return nil
}

// listedTool is a tool as listed, with its definition (its JSON), which tells whether it
// changed since the last listing.
type listedTool struct {
	tool       *mcp.Tool
	definition []byte
}

// list reads the server's tools, page after page, within MaxListPages, MaxTools and
// MaxListBytes: a server listing more, or larger ones, has the rest left out (in skipped).
func list(ctx context.Context, cs *mcp.ClientSession, log *slog.Logger) (listed []listedTool, skipped []Skipped, err error) {
	params := &mcp.ListToolsParams{}
	var total, past int // past: tools left out, of the pages read
	for page := 0; ; page++ {
		if page == MaxListPages {
			log.Warn("mcp server: tools/list has more pages than read", "pages", MaxListPages)
			break
		}
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, nil, err
		}
		for _, t := range res.Tools {
			if len(listed) == MaxTools || total > MaxListBytes {
				past++
				continue
			}
			if t == nil {
				skipped = append(skipped, Skipped{Reason: "an empty entry"})
				continue
			}
			definition, err := json.Marshal(t)
			if err != nil {
				skipped = append(skipped, Skipped{Tool: cut(t.Name, 128), Reason: err.Error()})
				continue
			}
			if total += len(definition); total > MaxListBytes {
				past++
				continue
			}
			listed = append(listed, listedTool{t, definition})
		}
		if res.NextCursor == "" || past > 0 {
			break
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	// The pages past the bound are not read, so how many tools they hold is unknown.
	switch {
	case past == 0:
	case len(listed) == MaxTools:
		skipped = append(skipped, Skipped{Tool: fmt.Sprintf("(the tools past the first %d)", MaxTools), Reason: "too many tools"})
	default:
		skipped = append(skipped, Skipped{Tool: fmt.Sprintf("(the tools past the first %d)", len(listed)), Reason: fmt.Sprintf("the listing is over %d bytes", MaxListBytes)})
	}
	return listed, skipped, nil
}

// currentSession returns the connection, or nil while there is none.
func (m *Mounted) currentSession() *mcp.ClientSession {
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.session
}

// dropped closes a connection a call found broken, so that run reconnects.
func (m *Mounted) dropped(cs *mcp.ClientSession) {
	m.mu.Lock()
	current := m.session == cs
	m.mu.Unlock()
	if current {
		cs.Close()
	}
}

// onProgress passes a progress notification to the call that asked for it.
func (m *Mounted) onProgress(_ context.Context, req *mcp.ProgressNotificationClientRequest) {
	if req == nil || req.Params == nil {
		return
	}
	token, ok := req.Params.ProgressToken.(string)
	if !ok {
		return
	}
	m.mu.Lock()
	fn := m.progress[token]
	m.mu.Unlock()
	if fn != nil {
		fn(req.Params)
	}
}

// watchProgress registers fn for the progress of one call and returns its token and the
// function that unregisters it.
func (m *Mounted) watchProgress(fn func(*mcp.ProgressNotificationParams)) (string, func()) {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.nextToken++
	token := fmt.Sprintf("toolgen-%d", m.nextToken)
	m.progress[token] = fn
	return token, func() {
		m.mu.Lock()
		delete(m.progress, token)
		m.mu.Unlock()
	}
}

// brokenConnection reports whether a call's error means the connection is gone: among them
// the 404 a server answers on a session it no longer holds: mcp.ErrSessionMissing, or the
// JSON-RPC error of code CodeSessionNotFound the TypeScript SDK's servers answer, which the
// go-sdk client does not read as mcp.ErrSessionMissing.
func brokenConnection(err error) bool {
	if rpc, ok := errors.AsType[*jsonrpc.Error](err); ok && rpc.Code == toolmcp.CodeSessionNotFound {
		return true
	}
	return errors.Is(err, mcp.ErrConnectionClosed) || errors.Is(err, mcp.ErrSessionMissing) || errors.Is(err, io.EOF)
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// cut returns s cut to at most n bytes, on a rune boundary, marked with an ellipsis.
func cut(s string, n int) string {
	if len(s) <= n {
		return s
	}
	i := n
	for i > 0 && !isRuneStart(s[i]) {
		i--
	}
	return strings.ToValidUTF8(s[:i], "") + "…"
}

func isRuneStart(b byte) bool { return b&0xC0 != 0x80 }
