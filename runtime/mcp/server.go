package mcp

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/json"
	"errors"
	"net/http"
	"os"
	"slices"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// The common case in three lines: a registry, its tools, a server.
//
//	reg := runtime.NewRegistry()
//	reg.Add(weather.Tools()...)
//	log.Fatal(toolmcp.ServeStdio(ctx, reg))
//
// or, over streamable HTTP:
//
//	log.Fatal(http.ListenAndServe("127.0.0.1:8080", toolmcp.HTTPHandler(reg, toolmcp.WithStateless())))
//
// Where results over their cap are kept is the registry's choice (runtime.WithResultStore).

// server is what the helpers configure beyond AddTools.
type server struct {
	name, version string
	options       mcp.ServerOptions
	stateless     bool
	affinity      bool // WithSessionAffinity
	verifier      auth.TokenVerifier
	authOptions   *auth.RequireBearerTokenOptions
	sessionLimits SessionLimits
	drain         *Drain   // WithDrain
	features      features // prompts, resources, hooks, HTTP options (features.go)
}

// WithImplementation names the server to clients ("toolgen", "1.0.0" otherwise).
func WithImplementation(name, version string) Option {
	return func(c *config) { c.server.name, c.server.version = name, version }
}

// WithPageSize sets how many tools one tools/list page holds (the SDK's default otherwise).
func WithPageSize(n int) Option {
	return func(c *config) { c.server.options.PageSize = max(n, 0) }
}

// WithServerOptions sets the go-sdk's server options (instructions, logger, keepalive, …);
// WithPageSize applies on top of them.
func WithServerOptions(o mcp.ServerOptions) Option {
	return func(c *config) {
		pageSize := c.server.options.PageSize
		c.server.options = o
		if pageSize > 0 {
			c.server.options.PageSize = pageSize
		}
	}
}

// WithStateless makes HTTPHandler stateless: no Mcp-Session-Id, every request on its own, as
// the 2026-07-28 protocol has it, and the client's closing its request cancels the call.
// Every request is then its own registry session unless WithSessionKey says otherwise.
func WithStateless() Option {
	return func(c *config) { c.server.stateless = true }
}

// WithSessionAffinity says that every request of a stateful HTTPHandler's session reaches the
// process that opened it: the server is one process, or its load balancer routes by the
// Mcp-Session-Id header (session affinity). A stateful handler keeps its sessions in its own
// process, so HTTPHandler refuses WithSharedSessions (a sign of replicas) on a stateful
// handler without it: round robin would send a session's requests to replicas that do not
// hold it. Stateless handlers need no affinity.
func WithSessionAffinity() Option {
	return func(c *config) { c.server.affinity = true }
}

// WithBearerAuth puts the go-sdk's auth.RequireBearerToken in front of HTTPHandler: requests
// without a token the verifier accepts are refused with 401, and the verified token
// (auth.TokenInfo, its UserID the principal) reaches handlers through TokenInfo(ctx) and can
// key sessions (SessionFromPrincipal).
func WithBearerAuth(verifier auth.TokenVerifier, opts *auth.RequireBearerTokenOptions) Option {
	return func(c *config) { c.server.verifier, c.server.authOptions = verifier, opts }
}

// StaticToken returns a verifier for WithBearerAuth that accepts one secret token, compared
// in constant time, as the user user (TokenInfo.UserID) holding scopes (TokenInfo.Scopes,
// the grant TokenScopes gives its requests): for a server only its owner's client calls. The
// token must be long and random (32 random bytes, hex-encoded, for instance); an empty token
// accepts nothing. Without scopes, the client sees only the tools that need none.
func StaticToken(token, user string, scopes ...string) auth.TokenVerifier {
	scopes = slices.Clone(scopes)
	want := sha256.Sum256([]byte(token))
	return func(_ context.Context, got string, _ *http.Request) (*auth.TokenInfo, error) {
		// Hashes have one length, so the comparison's time tells nothing of the token's.
		sum := sha256.Sum256([]byte(got))
		if token == "" || subtle.ConstantTimeCompare(sum[:], want[:]) != 1 {
			return nil, auth.ErrInvalidToken
		}
		return &auth.TokenInfo{UserID: user, Scopes: slices.Clone(scopes), Expiration: time.Now().Add(time.Hour)}, nil
	}
}

// NewServer returns a go-sdk server serving every tool of reg, following the registry
// (AddTools with nil), and the prompts and resources of WithPrompts and WithResources,
// configured by opts. It panics when those cannot be served (two of one name, a resource
// without a URI or with a bad template), as mcp.Server.AddResource does on a bad URI.
func NewServer(reg *runtime.Registry, opts ...Option) *mcp.Server {
	server, _ := newServer(reg, opts)
	return server
}

func newServer(reg *runtime.Registry, opts []Option) (*mcp.Server, *served) {
	cfg := configure(opts)
	name, version := cfg.server.name, cfg.server.version
	if name == "" {
		name, version = "toolgen", "1.0.0"
	}
	options := cfg.server.options
	built, err := buildFeatures(&cfg.server.features)
	if err != nil {
		panic(err) // a programming error, as a bad URI is to mcp.Server.AddResource
	}
	built.configure(&options)
	impl := &mcp.Implementation{Name: name, Version: version}
	server := mcp.NewServer(impl, &options)
	served := addTools(server, reg, nil, opts)
	served.prompts = built.prompts
	served.serverInfo, _ = json.Marshal(impl) // strings always encode
	served.versions = options.SupportedProtocolVersions
	built.add(server, served.states)
	return server, served
}

// ServeStdio serves reg over stdin and stdout until the input closes or ctx is done, for
// clients that start the server (desktop apps, IDEs).
func ServeStdio(ctx context.Context, reg *runtime.Registry, opts ...Option) error {
	server, served := newServer(reg, opts)
	return served.serveLines(ctx, server, os.Stdin, os.Stdout)
}

// errSharedPerRequest is HTTPHandler's refusal of a configuration that shares nothing.
var errSharedPerRequest = errors.New("toolmcp.HTTPHandler: WithSharedSessions over stateless HTTP needs a session key that outlives a request: " +
	"add WithSessionKey(SessionFromPrincipal()) (behind WithBearerAuth) or WithSessionKey(SessionFromHeader(\"X-Conversation\")) with clients that send it; " +
	"with the default, SessionPerConnection, every stateless request is a session of its own and no state is shared")

// errStatefulReplicas is HTTPHandler's refusal of stateful replicas that nothing routes.
var errStatefulReplicas = errors.New("toolmcp.HTTPHandler: WithSharedSessions on a stateful handler: a stateful MCP server keeps its sessions in its own process, " +
	"so replicas behind a load balancer that does not route by Mcp-Session-Id answer most requests with 404 Session not found; " +
	"add WithStateless() (with WithSessionKey(SessionFromPrincipal()) or WithSessionKey(SessionFromHeader(\"X-Conversation\"))) so that any replica serves any request, " +
	"or, when the balancer routes every request of a session to the replica that opened it (session affinity) or the server is one process, say so with WithSessionAffinity()")

// HTTPHandler returns a streamable HTTP handler serving reg: stateful (sessions by
// Mcp-Session-Id) unless WithStateless, behind WithBearerAuth when set. A stateful handler
// closes idle sessions and bounds how many are open, in all and per client (SessionLimits,
// WithSessionLimits). Every handler refuses, without repeating them, request ids, methods,
// tool and prompt names and resource URIs past MaxRequestIDBytes, MaxMethodLength,
// MaxNameLength and MaxResourceURIBytes, which the go-sdk would repeat whole in its answer.
//
// It panics, as a programming error, when asked for WithStateless and WithSharedSessions with
// the default session key: every stateless request would be its own session, and state kept
// in a shared store would never carry over (choose SessionFromPrincipal or SessionFromHeader).
// It panics too when asked for WithSharedSessions on a stateful handler without
// WithSessionAffinity: shared sessions are a sign of replicas, and a replica answers a
// request on a session another opened with 404 (WithStateless, or session affinity).
//
// A stateful handler answers a request whose Mcp-Session-Id it does not hold with 404 and a
// JSON-RPC error (code -32001) saying that the session ended or is on another server, and
// what to do behind a load balancer.
func HTTPHandler(reg *runtime.Registry, opts ...Option) http.Handler {
	h, _ := httpHandler(reg, opts)
	return h
}

func httpHandler(reg *runtime.Registry, opts []Option) (http.Handler, *served) {
	cfg := configure(opts)
	if cfg.server.stateless && cfg.shared && cfg.sessionKey.perConnection {
		// A programming error, found at start rather than as state that silently never
		// carries over.
		panic(errSharedPerRequest)
	}
	if !cfg.server.stateless && cfg.shared && !cfg.server.affinity {
		panic(errStatefulReplicas)
	}
	server, served := newServer(reg, opts)
	served.tasks.on.Store(true) // tasks/* reach the guard before the SDK (fastcall.go)
	if o := cfg.server.features.http; o != nil {
		//lint:ignore SA1019 a host may still set it, and the calls served beside the SDK must pass it too
		served.resumable, served.crossOrigin = o.EventStore != nil, o.CrossOriginProtection
	}
	limits := cfg.server.sessionLimits.resolved()
	// The session gate closes idle sessions, not the SDK: its timer would not see the calls
	// served beside it (fastcall.go).
	sdk := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		cfg.server.features.httpOptions(cfg.server.stateless))
	g := &guard{next: sdk, fast: served, drain: cfg.server.drain}
	if !cfg.server.stateless {
		g.sessions = newSessionGate(limits, server, served)
	}
	var h http.Handler = g
	if cfg.server.verifier != nil {
		h = auth.RequireBearerToken(cfg.server.verifier, cfg.server.authOptions)(h)
	}
	return h, served
}
