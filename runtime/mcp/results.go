package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// A result over its tool's size cap reaches the client as the preview the model reads (text
// content), a resource_link to the whole result, and, for a tool with an outputSchema, the
// whole structuredContent, so that it still validates: the cap bounds what the model reads,
// not the structured data a host validates. The link's URI names the stored result, the
// registry session it belongs to and the user who may read it, sealed by the server (only it
// can read or make one):
// resources/read serves it to that user (or, without auth, to whoever holds the link) until
// the registry's ResultStore lets it expire. It works over stateless HTTP too, where the
// reading request is a connection of its own. It is never a host path.

// resultURIPrefix is where stored results are served.
const resultURIPrefix = "toolgen://results/"

// resultTemplate lists stored results as a resource template.
var resultTemplate = &mcp.ResourceTemplate{
	Name:        "toolgen-result",
	Title:       "Stored tool result",
	Description: "The whole result of a tool call that was cut to its size cap, for a while after the call.",
	URITemplate: resultURIPrefix + "{token}",
}

// resultRef is what a result's URI names.
type resultRef struct {
	ID      string `json:"id"`
	Session string `json:"s"`
	User    string `json:"u,omitempty"`
}

func (s *served) resultURI(ref resultRef) string {
	data, _ := json.Marshal(ref) // strings always encode
	return resultURIPrefix + seal(s.states.link, data)
}

func (s *served) parseResultURI(uri string) (resultRef, bool) {
	var ref resultRef
	token, ok := strings.CutPrefix(uri, resultURIPrefix)
	if !ok {
		return ref, false
	}
	data, err := unseal(s.states.link, token)
	if err != nil {
		return ref, false
	}
	return ref, json.Unmarshal(data, &ref) == nil
}

// readResult serves resources/read of a stored result.
func (s *served) readResult(ctx context.Context, req *mcp.ReadResourceRequest) (*mcp.ReadResourceResult, error) {
	uri := req.Params.URI
	ref, ok := s.parseResultURI(uri)
	if !ok || ref.User != requestPrincipal(req) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	store := s.reg.ResultStore()
	facts, err := store.Read(ctx, ref.Session, ref.ID, 0, 0)
	if err == nil {
		facts, err = store.Read(ctx, ref.Session, ref.ID, 0, facts.Size)
	}
	if errors.Is(err, runtime.ErrResultNotFound) {
		return nil, mcp.ResourceNotFoundError(uri)
	}
	if err != nil {
		return nil, err
	}
	// The result is its user's: on 2026-07-28 it says so (SEP-2549), or a shared cache could
	// serve it to another (an unset scope goes out as the protocol's default, "public").
	return &mcp.ReadResourceResult{Cacheable: mcp.Cacheable{CacheScope: "private"},
		Contents: []*mcp.ResourceContents{{URI: uri, MIMEType: facts.ContentType, Text: string(facts.Data)}}}, nil
}

// requestPrincipal is the authenticated user of any request, or "".
func requestPrincipal(req mcp.Request) string {
	if extra := req.GetExtra(); extra != nil && extra.TokenInfo != nil {
		return extra.TokenInfo.UserID
	}
	return ""
}

// result turns what Invoke returned into the CallToolResult: a stored result gets its link
// and, for a tool with an outputSchema, its whole structuredContent.
func (s *served) result(ctx context.Context, cc *callContext, call runtime.Call, res runtime.Result) *mcp.CallToolResult {
	out := Result(res)
	if res.IsError {
		return out
	}
	declared := s.declaresObject(call.Name)
	if off := res.Offloaded; off != nil && off.ID != "" {
		store := s.reg.ResultStore()
		facts, err := store.Read(ctx, call.Session, off.ID, 0, 0)
		if err == nil && s.linkResults {
			size := facts.Size
			out.Content = append(out.Content, &mcp.ResourceLink{
				URI:         s.resultURI(resultRef{ID: off.ID, Session: call.Session, User: principal(cc.req)}),
				Name:        off.ID,
				Title:       "Whole result of " + call.Name,
				Description: fmt.Sprintf("The whole result (%d bytes); readable with resources/read until %s.", size, facts.Expires.UTC().Format(time.RFC3339)),
				MIMEType:    facts.ContentType,
				Size:        &size,
			})
		}
		if err == nil && declared && facts.ContentType == runtime.ContentTypeJSON {
			if whole, err := store.Read(ctx, call.Session, off.ID, 0, facts.Size); err == nil {
				out.StructuredContent = json.RawMessage(whole.Data)
			}
		}
	}
	if declared && out.StructuredContent == nil {
		// The outputSchema promises structuredContent; a result without it is refused by
		// clients, so say what went wrong instead.
		return toolError("%s produced a result that could not be sent as its declared structured output (it was too large to keep, or not an object).", call.Name)
	}
	return out
}

// outputShape is whether a tool's outputSchema is an object, worked out once per schema
// instead of parsing the schema on every call.
type outputShape struct {
	schema *byte // the schema it was worked out for: a tool replaced under its name has another
	size   int
	object bool
}

// declaresObject reports whether the registry's tool name declares an object outputSchema,
// which promises structuredContent.
func (s *served) declaresObject(name string) bool {
	tool, ok := s.reg.Tool(name)
	if !ok || len(tool.OutputSchema) == 0 {
		return false
	}
	schema := &tool.OutputSchema[0]
	if v, ok := s.outputs.Load(name); ok {
		if shape := v.(outputShape); shape.schema == schema && shape.size == len(tool.OutputSchema) {
			return shape.object
		}
	}
	object := objectSchema(tool.OutputSchema)
	s.outputs.Store(name, outputShape{schema: schema, size: len(tool.OutputSchema), object: object})
	return object
}
