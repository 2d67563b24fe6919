package mount

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/schematool"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

var namePattern = regexp.MustCompile(`^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$`)

func validName(name string) bool { return namePattern.MatchString(name) }

// remoteTool is one of the server's tools as the registry holds it.
type remoteTool struct {
	remote     string // the server's name for it
	tool       runtime.Tool
	definition string // the listing's JSON, to tell a changed tool from the same one
}

// argsValidator checks a call's arguments and returns what is sent: the canonical form.
type argsValidator interface {
	Validate(args []byte) (json.RawMessage, error)
}

// build makes the registry tool of one listed tool. Everything in t is the server's word:
// names are checked, text is cut, schemas are compiled within schematool's bounds.
func (m *Mounted) build(t *mcp.Tool, definition string, deferred bool) (*remoteTool, error) {
	name := m.opts.Prefix + t.Name
	if len(t.Name) > 128 || !validName(name) {
		return nil, fmt.Errorf("the name with the prefix %q does not match %s", m.opts.Prefix, namePattern)
	}
	input, err := json.Marshal(t.InputSchema)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	validator, input, err := m.inputValidator(input)
	if err != nil {
		return nil, fmt.Errorf("input schema: %w", err)
	}
	var output *referenceSchema
	var outputJSON json.RawMessage
	if t.OutputSchema != nil {
		if outputJSON, err = json.Marshal(t.OutputSchema); err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
		if output, err = compileReference(outputJSON); err != nil {
			return nil, fmt.Errorf("output schema: %w", err)
		}
	}
	hints := runtime.Hints{OpenWorld: true}
	title := t.Title
	if a := t.Annotations; a != nil {
		// The protocol's defaults where a hint is absent: destructive and open world.
		hints.ReadOnly, hints.Idempotent = a.ReadOnlyHint, a.IdempotentHint
		hints.Destructive = !a.ReadOnlyHint && (a.DestructiveHint == nil || *a.DestructiveHint)
		hints.OpenWorld = a.OpenWorldHint == nil || *a.OpenWorldHint
		if title == "" {
			title = a.Title
		}
	} else {
		hints.Destructive = true
	}
	permission := runtime.PermissionAuto
	if m.opts.ConfirmAll || slices.Contains(m.opts.Confirm, t.Name) || hints.Destructive && !slices.Contains(m.opts.Auto, t.Name) {
		permission = runtime.PermissionConfirm
	}
	rt := &remoteTool{remote: t.Name, definition: definition}
	rt.tool = runtime.Tool{
		Name:         name,
		Origin:       "mcp server " + m.server.Name + ": " + t.Name,
		Title:        cut(strings.ToValidUTF8(title, "\uFFFD"), MaxTitleBytes),
		Description:  cut(strings.ToValidUTF8(t.Description, "\uFFFD"), MaxDescriptionBytes),
		Icons:        icons(t.Icons),
		Timeout:      m.opts.Timeout,
		Permission:   permission,
		Hints:        hints,
		MaxResult:    m.opts.MaxResult,
		Deferred:     deferred,
		Namespace:    m.opts.Namespace,
		Scopes:       scopesOf(m.opts, t.Name),
		InputSchema:  input,
		OutputSchema: outputJSON,
		Dialects:     []string{variant.OpenAI, variant.Anthropic, variant.AnthropicStrict, variant.GeminiParameters, variant.GeminiJSONSchema},
		Metadata:     map[string]string{"mcp.server": m.server.Name, "mcp.tool": t.Name},
		Bind: func(ctx context.Context, args []byte) (runtime.BoundCall, error) {
			canonical, err := validator.Validate(dropNullOptionals(args, input))
			if err != nil {
				return nil, err
			}
			return &call{m: m, local: name, remote: rt.remote, args: canonical, output: output}, nil
		},
	}
	if permission == runtime.PermissionConfirm && hints.Destructive {
		rt.tool.ConfirmReason = "the server says this tool may change or delete things"
	}
	return rt, nil
}

// scopesOf returns the scopes the host gives the server's tool remote (Options.Scopes and
// Options.ToolScopes), each once, nil for none.
func scopesOf(o Options, remote string) []string {
	var out []string
	for _, sc := range append(slices.Clone(o.Scopes), o.ToolScopes[remote]...) {
		if !slices.Contains(out, sc) {
			out = append(out, sc)
		}
	}
	return out
}

// olderDrafts are the $schema values whose keywords, within schematool's subset, mean what
// 2020-12's do: a schema naming one is compiled as 2020-12.
var olderDrafts = []string{"http://json-schema.org/draft-07/schema", "https://json-schema.org/draft/2019-09/schema"}

// inputValidator compiles an input schema: into decoder tables when it is in schematool's
// subset (the problems generated tools give), else, unless Strict, with the general validator.
func (m *Mounted) inputValidator(schema json.RawMessage) (argsValidator, json.RawMessage, error) {
	if len(schema) > schematool.MaxSchemaBytes {
		return nil, nil, fmt.Errorf("%d bytes, more than the %d allowed", len(schema), schematool.MaxSchemaBytes)
	}
	subset := schema
	var top map[string]json.RawMessage
	if json.Unmarshal(schema, &top) == nil {
		var draft string
		if json.Unmarshal(top["$schema"], &draft) == nil && slices.Contains(olderDrafts, strings.TrimSuffix(draft, "#")) {
			delete(top, "$schema")
			subset, _ = json.Marshal(top)
		}
	}
	s, err := schematool.Compile(subset)
	if err == nil {
		return s, s.JSON(), nil
	}
	if m.opts.Strict {
		return nil, nil, err
	}
	ref, refErr := compileReference(schema)
	if refErr != nil {
		return nil, nil, refErr
	}
	return ref, schema, nil
}

// call is a bound call of a remote tool: arguments validated, canonical.
type call struct {
	m      *Mounted
	local  string // the name the model called
	remote string
	args   json.RawMessage
	output *referenceSchema
}

func (c *call) Args() any { return c.args }

// Run sends the call and turns the server's answer into a result. Cancellation reaches the
// server (the go-sdk sends notifications/cancelled when ctx ends), and its progress reaches
// whoever waits for this call (runtime.Progress).
func (c *call) Run(ctx context.Context) runtime.Result {
	m := c.m
	cs := m.currentSession()
	if cs == nil {
		return unavailable(fmt.Sprintf("the MCP server %s is not connected now (reconnecting); try again later", m.server.Name), nil)
	}
	token, stop := m.watchProgress(func(p *mcp.ProgressNotificationParams) {
		runtime.Progress(ctx, p.Progress, p.Total, cut(strings.ToValidUTF8(p.Message, "\uFFFD"), MaxProgressMessage))
	})
	defer stop()
	params := &mcp.CallToolParams{Name: c.remote, Arguments: c.args}
	if info, ok := runtime.CallInfoFrom(ctx); ok && info.Run != (runtime.RunInfo{}) {
		params.Meta = mcp.Meta{toolmcp.MetaRun: toolmcp.RunMeta(&info.Run)} // the server's handlers see the run
	}
	params.SetProgressToken(token)
	callCtx, elicits := ctx, (*inCall)(nil)
	if m.opts.Elicit != nil { // the elicitation handler finds the call's questions by its ctx
		elicits = &inCall{m: m}
		callCtx = context.WithValue(ctx, inCallKey{}, elicits)
	}
	res, err := cs.CallTool(callCtx, params)
	if err != nil {
		if eerr := elicits.elicitError(); eerr != nil {
			// As it is: runtime/mcp's input-required error (a question for its client) must
			// reach it, and a Permanent error must not be retried.
			return runtime.Result{Text: fmt.Sprintf("the MCP server %s asked for input, and it could not be given", m.server.Name), IsError: true, Err: eerr, Kind: runtime.KindUnavailable}
		}
		if ctx.Err() != nil {
			return runtime.Result{Text: "the call was cancelled or timed out", IsError: true, Err: ctx.Err(), Kind: runtime.KindCancelled}
		}
		if brokenConnection(err) {
			m.dropped(cs)
			return unavailable(fmt.Sprintf("the connection to the MCP server %s dropped during the call; it is reconnecting, try again later", m.server.Name), err)
		}
		var rpc *jsonrpc.Error
		if errors.As(err, &rpc) {
			return unavailable(fmt.Sprintf("the MCP server %s refused the call: %s", m.server.Name, cut(strings.ToValidUTF8(rpc.Message, "\uFFFD"), MaxErrorText)), err)
		}
		return unavailable(fmt.Sprintf("the call to the MCP server %s failed", m.server.Name), err)
	}
	return c.result(res)
}

// ToolError is the Err of a result in which a mounted server's tool reported its own failure
// (isError): the result's text is the server's, not the registry's.
type ToolError struct {
	Server string // the server's name in the mount
	Tool   string // the tool's name on the server
}

func (e *ToolError) Error() string {
	return fmt.Sprintf("the MCP server %s: tool %s returned an error", e.Server, e.Tool)
}

func unavailable(text string, err error) runtime.Result {
	if err == nil {
		err = errors.New(text)
	}
	return runtime.Result{Text: text, IsError: true, Err: err, Kind: runtime.KindUnavailable}
}

// result converts the server's answer, checking a structured one against the output schema.
func (c *call) result(res *mcp.CallToolResult) runtime.Result {
	var r runtime.Result
	var texts []string
	extra := 0
	for i, content := range res.Content {
		if i >= MaxContentItems {
			extra = len(res.Content) - i
			break
		}
		switch v := content.(type) {
		case *mcp.TextContent:
			texts = append(texts, v.Text)
		case *mcp.ImageContent:
			r.Parts = append(r.Parts, runtime.ImagePart(v.MIMEType, v.Data))
		case *mcp.AudioContent:
			r.Parts = append(r.Parts, runtime.AudioPart(v.MIMEType, v.Data))
		case *mcp.ResourceLink:
			p := runtime.ResourceLinkPart(v.URI, v.Name, v.MIMEType)
			p.Title, p.Description = v.Title, v.Description
			if v.Size != nil {
				p.Size = *v.Size
			}
			r.Parts = append(r.Parts, p)
		case *mcp.EmbeddedResource:
			if v.Resource != nil {
				r.Parts = append(r.Parts, runtime.Part{Kind: runtime.PartResource, URI: v.Resource.URI, MIMEType: v.Resource.MIMEType, Text: v.Resource.Text, Data: v.Resource.Blob})
			}
		}
	}
	r.Text = strings.ToValidUTF8(strings.Join(texts, "\n"), "\uFFFD")
	if extra > 0 {
		r.Text += fmt.Sprintf("\n(%d more content items left out)", extra)
	}
	if res.IsError {
		if denied, ok := deniedBy(res.Meta); ok {
			// A toolgen server's denial: the model reads it under the name it called.
			return runtime.DeniedResult(c.local, denied)
		}
		r.IsError, r.Kind = true, runtime.KindInternal
		r.Err = &ToolError{Server: c.m.server.Name, Tool: c.remote}
		if r.Text == "" {
			r.Text = "the tool failed without saying why"
		}
		return r
	}
	if res.StructuredContent != nil || c.output != nil {
		structured, err := json.Marshal(res.StructuredContent)
		if err != nil || res.StructuredContent == nil {
			return unavailable(fmt.Sprintf("the MCP server %s answered without the structured result its tool %s declares", c.m.server.Name, c.remote), err)
		}
		if c.output != nil {
			if problems := c.output.check(structured); len(problems) > 0 {
				return unavailable(fmt.Sprintf("the MCP server %s answered with a result that does not match its output schema (%s); it was not passed on", c.m.server.Name, strings.Join(problems, "; ")),
					fmt.Errorf("mcp server %s: tool %s: output schema: %s", c.m.server.Name, c.remote, strings.Join(problems, "; ")))
			}
		}
		// The model reads the structured result, as it does a generated tool's; the text
		// content is, by the protocol's rule, the same JSON.
		r.Structured, r.Text = structured, string(structured)
	}
	return r
}

// deniedBy reads the decision a toolgen server puts in a denied call's result
// (toolmcp.MetaDenied). Its words are the server's, so they are cut to MaxErrorText, made
// valid UTF-8 and kept on one line.
func deniedBy(meta mcp.Meta) (runtime.Decision, bool) {
	denied, ok := meta[toolmcp.MetaDenied].(map[string]any)
	if !ok {
		return runtime.Decision{}, false
	}
	text := func(key string) string {
		s, _ := denied[key].(string)
		s = strings.Map(func(r rune) rune {
			if unicode.IsControl(r) {
				return ' '
			}
			return r
		}, strings.ToValidUTF8(s, "\uFFFD"))
		return cut(s, MaxErrorText)
	}
	return runtime.Decision{By: text("by"), Reason: text("reason")}, true
}
