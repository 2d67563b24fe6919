package mcp

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/yosida95/uritemplate/v3"

	"github.com/toolgen-go/toolgen/runtime"
)

// Metadata keys of a tool served as a resource (WithResources). //tool:resource sets them.
const (
	// MetaURI is the resource's URI, or its URI template (RFC 6570) when it has {variables}.
	MetaURI = "mcp.uri"
	// MetaMIMEType is the MIME type of what the resource holds.
	MetaMIMEType = "mcp.mimeType"
)

// MaxCompletionValues is the most values one completion/complete answer holds, as MCP
// allows; Total and HasMore tell the client how many more matched.
const MaxCompletionValues = 100

// features are the prompts and resources a server serves besides its tools.
type features struct {
	prompts   []runtime.Tool
	resources []runtime.Tool
	hooks     []func(*mcp.Server)
	http      *mcp.StreamableHTTPOptions
}

// WithPrompts serves each tool as an MCP prompt (prompts/list, prompts/get) on the server
// NewServer, ServeStdio and HTTPHandler build. A prompt is written as a tool is, usually an
// annotated func (//tool:prompt) whose generated runtime.Tool it is: its name, title and
// description are the tool's; its arguments are the properties of its input schema, with their
// descriptions, required as the schema says. prompts/get's arguments (strings, as MCP sends
// them) are decoded into the args struct by the tool's own decoder, so a bad argument is
// refused (invalid params) with every problem listed; a string argument of an enum type is
// completed (completion/complete) from the enum's values. The handler's result becomes the
// prompt's messages, all from the user: each part (image, audio, embedded resource, resource
// link) one message, in order, then the text, when there is some.
//
// Prompts run through a registry of their own, with its defaults (timeout, retry as the tool
// says, panics recovered) and no size cap on what they return.
func WithPrompts(prompts ...runtime.Tool) Option {
	return func(c *config) { c.server.features.prompts = append(c.server.features.prompts, prompts...) }
}

// WithResources serves each tool as an MCP resource (resources/list, resources/read): the
// tool's Metadata[MetaURI] is its URI, Metadata[MetaMIMEType] its MIME type; //tool:resource
// sets both. A URI with {variables} (an RFC 6570 template) makes a resource template
// (resources/templates/list): the variables a URI matches are decoded into the args struct as
// prompt arguments are (see WithPrompts), and completed from enum types the same way. The
// handler's result becomes the contents: its text (with the MIME type, else application/json
// for a structured result, else text/plain), then each part: an image, audio or embedded
// resource as a blob or text of its own. A handler error whose kind is runtime.KindNotFound
// reads as resource not found.
//
// Clients may subscribe (resources/subscribe) to a resource without variables; the server
// tells them of a change when the host calls mcp.Server.ResourceUpdated (WithServerHook
// reaches the server).
func WithResources(resources ...runtime.Tool) Option {
	return func(c *config) {
		c.server.features.resources = append(c.server.features.resources, resources...)
	}
}

// WithServerHook calls fn with the go-sdk server NewServer built (ServeStdio and HTTPHandler
// too: one server serves every session), after toolgen added its tools, prompts and
// resources and before any client connects: the way to reach what toolgen does not wrap
// (ResourceUpdated, AddReceivingMiddleware, resources or prompts written for the SDK).
func WithServerHook(fn func(*mcp.Server)) Option {
	return func(c *config) {
		if fn != nil {
			c.server.features.hooks = append(c.server.features.hooks, fn)
		}
	}
}

// WithHTTPOptions sets the go-sdk's streamable HTTP options of HTTPHandler (JSONResponse,
// EventStore, Logger, localhost and cross-origin protection, …). HTTPHandler keeps its own
// Stateless (WithStateless), SessionTimeout (WithSessionLimits) and
// PropagateRequestCancellation, and an event store set with WithEventStore when o has none.
func WithHTTPOptions(o mcp.StreamableHTTPOptions) Option {
	return func(c *config) {
		if o.EventStore == nil && c.server.features.http != nil {
			o.EventStore = c.server.features.http.EventStore
		}
		c.server.features.http = &o
	}
}

// WithEventStore makes HTTPHandler's streams resumable (SEP-1699): what a stateful session
// sends on its SSE streams is kept in store, so a client that lost a stream reconnects with
// Last-Event-ID and gets what it missed; a handler may then close a long call's stream
// (CallToolRequest.Extra.CloseSSEStream, through RequestFrom) and the client polls.
// mcp.NewMemoryEventStore(nil) keeps events in memory, within its MaxBytes (10 MiB by
// default), dropping the oldest.
func WithEventStore(store mcp.EventStore) Option {
	return func(c *config) {
		if c.server.features.http == nil {
			c.server.features.http = &mcp.StreamableHTTPOptions{}
		}
		c.server.features.http.EventStore = store
	}
}

// httpOptions returns the streamable HTTP options HTTPHandler uses.
// The session gate closes idle sessions, not the SDK (SessionTimeout stays 0): the SDK's timer
// would not see the calls served beside it (fastcall.go).
func (f *features) httpOptions(stateless bool) *mcp.StreamableHTTPOptions {
	var o mcp.StreamableHTTPOptions
	if f.http != nil {
		o = *f.http
	}
	o.Stateless, o.PropagateRequestCancellation, o.SessionTimeout = stateless, true, 0
	return &o
}

// configure sets the server options the features need, where the host set none.
func (f *features) configure(o *mcp.ServerOptions, p *promptSet, r *resourceSet) {
	if len(f.prompts) > 0 || len(f.resources) > 0 {
		if o.CompletionHandler == nil {
			o.CompletionHandler = func(ctx context.Context, req *mcp.CompleteRequest) (*mcp.CompleteResult, error) {
				return complete(req, p, r)
			}
		}
	}
	if len(r.static) > 0 && o.SubscribeHandler == nil {
		o.SubscribeHandler = r.subscribe
		if o.UnsubscribeHandler == nil {
			o.UnsubscribeHandler = func(context.Context, *mcp.UnsubscribeRequest) error { return nil }
		}
	}
}

// argument is one property of a prompt's or resource template's input schema.
type argument struct {
	name        string
	description string
	required    bool
	text        bool     // the schema accepts a string: the value is sent as one
	enum        []string // the values a client may complete, as text
}

// schemaArguments reads the properties of an object schema, in their order.
func schemaArguments(schema json.RawMessage) ([]argument, error) {
	var root struct {
		Properties json.RawMessage `json:"properties"`
		Required   []string        `json:"required"`
	}
	if len(schema) == 0 {
		return nil, nil
	}
	if err := json.Unmarshal(schema, &root); err != nil {
		return nil, err
	}
	names, err := objectKeys(root.Properties)
	if err != nil {
		return nil, err
	}
	var props map[string]struct {
		Type        any    `json:"type"`
		Description string `json:"description"`
		Enum        []any  `json:"enum"`
	}
	if len(root.Properties) > 0 {
		if err := json.Unmarshal(root.Properties, &props); err != nil {
			return nil, err
		}
	}
	out := make([]argument, 0, len(names))
	for _, name := range names {
		p := props[name]
		a := argument{name: name, description: p.Description, required: slices.Contains(root.Required, name)}
		switch t := p.Type.(type) {
		case string:
			a.text = t == "string"
		case []any:
			a.text = slices.Contains(t, any("string"))
		}
		for _, v := range p.Enum {
			switch v := v.(type) {
			case string:
				a.enum = append(a.enum, v)
			case float64:
				a.enum = append(a.enum, strconv.FormatFloat(v, 'f', -1, 64))
			}
		}
		out = append(out, a)
	}
	return out, nil
}

// objectKeys returns the keys of a JSON object in the order written.
func objectKeys(obj json.RawMessage) ([]string, error) {
	if len(obj) == 0 {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(obj))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return nil, fmt.Errorf("properties is not an object")
	}
	var keys []string
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, err
		}
		keys = append(keys, tok.(string))
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return nil, err
		}
	}
	return keys, nil
}

// argsJSON turns MCP's string arguments into the JSON object the tool's decoder reads: a
// value is a JSON string where the schema takes one, else the JSON it is (a number, a
// boolean, …) when it is valid JSON, else a string, which the decoder refuses with the
// property's expected type. Names the schema does not list are passed on, for the decoder to
// refuse.
func argsJSON(args []argument, values map[string]string) json.RawMessage {
	var b bytes.Buffer
	b.WriteByte('{')
	write := func(name, value string, text bool) {
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		key, _ := json.Marshal(name)
		b.Write(key)
		b.WriteByte(':')
		if !text && json.Valid([]byte(value)) {
			b.WriteString(value)
			return
		}
		v, _ := json.Marshal(value)
		b.Write(v)
	}
	known := map[string]bool{}
	for _, a := range args {
		known[a.name] = true
		if v, ok := values[a.name]; ok {
			write(a.name, v, a.text)
		}
	}
	var unknown []string
	for name := range values {
		if !known[name] {
			unknown = append(unknown, name)
		}
	}
	sort.Strings(unknown)
	for _, name := range unknown {
		write(name, values[name], true)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// featureError turns a failed prompt or resource call into a JSON-RPC error: the client's
// arguments are invalid params, anything else an internal error with the text the runtime
// wrote for it (never a host path: the runtime's error texts are the model's).
func featureError(res runtime.Result) error {
	code := int64(jsonrpc.CodeInternalError)
	if res.Kind == runtime.KindInvalidInput {
		code = jsonrpc.CodeInvalidParams
	}
	return &jsonrpc.Error{Code: code, Message: res.Text}
}

// featureCall is one prompts/get or resources/read to run through its registry.
type featureCall struct {
	reg   *runtime.Registry
	req   mcp.Request
	round string // what the request's round states are bound to: "prompt NAME", "resource URI"
	name  string // the prompt or resource (a tool of reg)
	args  json.RawMessage
	// inputResponses and requestState are what the request brings on protocol 2026-07-28.
	inputResponses mcp.InputResponseMap
	requestState   string
}

// invoke runs a prompt or resource in a context where Log, Sample, Elicit, ListRoots and Ask
// reach the client. On protocol 2026-07-28 what the handler asks comes back as the input
// requests to return, with their state (see Ask); a state that is not this request's is a
// protocol error.
func (c featureCall) invoke(ctx context.Context, states *roundStates, ss *mcp.ServerSession, caps *mcp.ClientCapabilities) (runtime.Result, mcp.InputRequestMap, string, error) {
	ctx = context.WithValue(ctx, sessionContextKey{}, ss)
	a := &asker{ss: ss, caps: caps}
	scope := "user:" + requestPrincipal(c.req)
	args := hashArgs(c.args)
	if ss != nil && multiRound(ss) && states != nil {
		a.round = &round{}
		problem, err := states.resume(a.round, c.inputResponses, c.requestState, c.round, scope, args)
		if err != nil {
			return runtime.Result{}, nil, "", err
		}
		if problem != "" {
			return runtime.Result{}, nil, "", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: problem}
		}
	}
	ctx = context.WithValue(ctx, askerKey{}, a)
	res := c.reg.Invoke(ctx, runtime.Call{Name: c.name, Args: c.args})
	if a.round == nil {
		return res, nil, "", nil
	}
	if q := a.round.question(); len(q) > 0 {
		reqs, st := a.round.sealRound(q)
		st.Tool, st.Call, st.Scope = c.round, args, scope
		return runtime.Result{}, reqs, states.sign(st), nil
	}
	if err := missingCapability(res.Err); err != nil {
		return runtime.Result{}, nil, "", err
	}
	return res, nil, "", nil
}

// promptSet serves the prompts of one server.
type promptSet struct {
	reg    *runtime.Registry
	args   map[string][]argument
	states *roundStates // the states of prompts that ask (Ask) on protocol 2026-07-28
}

func newPromptSet(prompts []runtime.Tool) (*promptSet, error) {
	p := &promptSet{reg: runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxResult: -1})), args: map[string][]argument{}}
	for _, t := range prompts {
		args, err := schemaArguments(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcp: prompt %s: reading its input schema: %w", t.Name, err)
		}
		p.args[t.Name] = args
	}
	if err := p.reg.Add(prompts...); err != nil {
		return nil, fmt.Errorf("mcp: prompts: %w", err)
	}
	return p, nil
}

// serves reports whether the set holds the prompt name.
func (p *promptSet) serves(name string) bool {
	_, ok := p.reg.Tool(name)
	return ok
}

func (p *promptSet) add(server *mcp.Server, prompts []runtime.Tool) {
	for _, t := range prompts {
		def := &mcp.Prompt{Name: t.Name, Title: t.Title, Description: t.Description, Icons: icons(t.Icons)}
		for _, a := range p.args[t.Name] {
			def.Arguments = append(def.Arguments, &mcp.PromptArgument{Name: a.name, Description: a.description, Required: a.required})
		}
		server.AddPrompt(def, p.get)
	}
}

func (p *promptSet) get(ctx context.Context, req *mcp.GetPromptRequest) (*mcp.GetPromptResult, error) {
	name := req.Params.Name
	call := featureCall{reg: p.reg, req: req, round: "prompt " + name, name: name, args: argsJSON(p.args[name], req.Params.Arguments),
		inputResponses: req.Params.InputResponses, requestState: req.Params.RequestState}
	res, inputs, state, err := call.invoke(ctx, p.states, req.Session, req.ClientCapabilities())
	if err != nil {
		return nil, err
	}
	if inputs != nil {
		return &mcp.GetPromptResult{InputRequests: inputs, RequestState: state}, nil
	}
	if res.IsError {
		return nil, featureError(res)
	}
	out := &mcp.GetPromptResult{Messages: []*mcp.PromptMessage{}}
	if t, ok := p.reg.Tool(name); ok {
		out.Description = t.Description
	}
	for _, part := range res.Parts {
		if c := content(part); c != nil {
			out.Messages = append(out.Messages, &mcp.PromptMessage{Role: "user", Content: c})
		}
	}
	if res.Text != "" {
		out.Messages = append(out.Messages, &mcp.PromptMessage{Role: "user", Content: &mcp.TextContent{Text: res.Text}})
	}
	return out, nil
}

// resourceSet serves the resources and resource templates of one server.
type resourceSet struct {
	reg       *runtime.Registry
	states    *roundStates    // the states of resources that ask (Ask) on protocol 2026-07-28
	static    map[string]bool // the URIs of resources without variables
	templates map[string]*resourceTemplate
}

type resourceTemplate struct {
	name     string
	template *uritemplate.Template
	args     []argument
}

func newResourceSet(resources []runtime.Tool) (*resourceSet, error) {
	r := &resourceSet{reg: runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxResult: -1})), static: map[string]bool{}, templates: map[string]*resourceTemplate{}}
	for _, t := range resources {
		uri := t.Metadata[MetaURI]
		if uri == "" {
			return nil, fmt.Errorf("mcp: resource %s has no URI (Metadata[%q], //tool:resource)", t.Name, MetaURI)
		}
		if !strings.Contains(uri, "{") {
			r.static[uri] = true
			continue
		}
		tpl, err := uritemplate.New(uri)
		if err != nil {
			return nil, fmt.Errorf("mcp: resource %s: URI template %q: %w", t.Name, uri, err)
		}
		args, err := schemaArguments(t.InputSchema)
		if err != nil {
			return nil, fmt.Errorf("mcp: resource %s: reading its input schema: %w", t.Name, err)
		}
		r.templates[uri] = &resourceTemplate{name: t.Name, template: tpl, args: args}
	}
	if err := r.reg.Add(resources...); err != nil {
		return nil, fmt.Errorf("mcp: resources: %w", err)
	}
	return r, nil
}

func (r *resourceSet) add(server *mcp.Server, resources []runtime.Tool) {
	for _, t := range resources {
		uri, mime := t.Metadata[MetaURI], t.Metadata[MetaMIMEType]
		if tpl := r.templates[uri]; tpl != nil {
			server.AddResourceTemplate(&mcp.ResourceTemplate{Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: mime, URITemplate: uri, Icons: icons(t.Icons)},
				func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
					values := map[string]string{}
					for name, v := range tpl.template.Match(req.Params.URI) {
						values[name] = v.String()
					}
					return r.read(ctx, req, tpl.name, argsJSON(tpl.args, values), mime)
				})
			continue
		}
		server.AddResource(&mcp.Resource{Name: t.Name, Title: t.Title, Description: t.Description, MIMEType: mime, URI: uri, Icons: icons(t.Icons)},
			func(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
				return r.read(ctx, req, t.Name, nil, mime)
			})
	}
}

func (r *resourceSet) read(ctx context.Context, req *mcp.ReadResourceRequest, name string, args json.RawMessage, mime string) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	call := featureCall{reg: r.reg, req: req, round: "resource " + uri, name: name, args: args,
		inputResponses: req.Params.InputResponses, requestState: req.Params.RequestState}
	res, inputs, state, err := call.invoke(ctx, r.states, req.Session, req.ClientCapabilities())
	if err != nil {
		return nil, err
	}
	if inputs != nil {
		return &mcp.ReadResourceResult{InputRequests: inputs, RequestState: state}, nil
	}
	if res.IsError {
		if res.Kind == runtime.KindNotFound {
			return nil, mcp.ResourceNotFoundError(uri)
		}
		return nil, featureError(res)
	}
	// A handler's answer may depend on its caller (the session, the token, the grant), which
	// the server cannot see from here: only the requesting user's client may cache it.
	out := &mcp.ReadResourceResult{Contents: []*mcp.ResourceContents{}, Cacheable: mcp.Cacheable{CacheScope: "private"}}
	if res.Text != "" || len(res.Parts) == 0 {
		textMIME := mime
		if textMIME == "" {
			textMIME = "text/plain"
			if res.Structured != nil {
				textMIME = "application/json"
			}
		}
		out.Contents = append(out.Contents, &mcp.ResourceContents{URI: uri, MIMEType: textMIME, Text: res.Text})
	}
	for _, p := range res.Parts {
		c := &mcp.ResourceContents{URI: cmpOr(p.URI, uri), MIMEType: cmpOr(p.MIMEType, mime)}
		switch p.Kind {
		case runtime.PartResource:
			c.Text = p.Text
			if p.Text == "" {
				c.Blob = p.Data
			}
		case runtime.PartImage, runtime.PartAudio:
			c.Blob = p.Data
		default:
			continue // a link is not content
		}
		out.Contents = append(out.Contents, c)
	}
	return out, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// subscribe accepts subscriptions to the resources without variables: they are few, so what
// a session may make the server remember is bounded by them.
func (r *resourceSet) subscribe(_ context.Context, req *mcp.SubscribeRequest) error {
	if !r.static[req.Params.URI] {
		return &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "only a listed resource (resources/list) can be subscribed to"}
	}
	return nil
}

// complete answers completion/complete from the enum values of a prompt's argument or a
// resource template's variable: those that start with what the user typed.
func complete(req *mcp.CompleteRequest, p *promptSet, r *resourceSet) (*mcp.CompleteResult, error) {
	var args []argument
	ref := req.Params.Ref
	switch {
	case ref == nil:
	case ref.Type == "ref/prompt" && p != nil:
		args = p.args[ref.Name]
		if _, ok := p.args[ref.Name]; !ok {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such prompt"}
		}
	case ref.Type == "ref/resource" && r != nil:
		tpl := r.templates[ref.URI]
		if tpl == nil {
			return nil, &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "no such resource template"}
		}
		args = tpl.args
	}
	values := []string{}
	total := 0
	for _, a := range args {
		if a.name != req.Params.Argument.Name {
			continue
		}
		for _, v := range a.enum {
			if strings.HasPrefix(v, req.Params.Argument.Value) {
				total++
				if len(values) < MaxCompletionValues {
					values = append(values, v)
				}
			}
		}
	}
	return &mcp.CompleteResult{Completion: mcp.CompletionResultDetails{Values: values, Total: total, HasMore: total > len(values)}}, nil
}

// builtFeatures are the prompts and resources of one server, ready to serve.
type builtFeatures struct {
	f         *features
	prompts   *promptSet
	resources *resourceSet
}

func buildFeatures(f *features) (*builtFeatures, error) {
	b := &builtFeatures{f: f}
	var err error
	if len(f.prompts) > 0 {
		if b.prompts, err = newPromptSet(f.prompts); err != nil {
			return nil, err
		}
	}
	if len(f.resources) > 0 {
		if b.resources, err = newResourceSet(f.resources); err != nil {
			return nil, err
		}
	}
	return b, nil
}

func (b *builtFeatures) configure(o *mcp.ServerOptions) {
	if b.prompts == nil && b.resources == nil {
		return
	}
	r := b.resources
	if r == nil {
		r = &resourceSet{}
	}
	b.f.configure(o, b.prompts, r)
}

// add serves the prompts and resources on server; states seals the state of those that ask
// on protocol 2026-07-28 (the tools' own, so WithStateKey covers them too).
func (b *builtFeatures) add(server *mcp.Server, states *roundStates) {
	if b.prompts != nil {
		b.prompts.states = states
		b.prompts.add(server, b.f.prompts)
	}
	if b.resources != nil {
		b.resources.states = states
		b.resources.add(server, b.f.resources)
	}
	for _, hook := range b.f.hooks {
		hook(server)
	}
}
