//lint:file-ignore SA1019 logging and sampling are deprecated by protocol 2026-07-28 (SEP-2577) but still served to clients up to 2025-11-25, which is what these helpers are for.

package mcp

import (
	"context"
	"encoding/json"
	"errors"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// ErrNoSampling is returned by Sample when the client cannot be asked: it did not declare the
// sampling capability, or it cannot be reached (stateless HTTP before protocol 2026-07-28).
var ErrNoSampling = errors.New("mcp: the client does not support sampling")

// MaxLogBytes bounds the data of one log message Log sends: a longer text is cut (at a rune
// boundary, with "…"), and other data whose JSON is longer is sent as that JSON, cut.
const MaxLogBytes = 64 << 10

// DefaultSampleMaxTokens is the maxTokens SampleText asks for when given none.
const DefaultSampleMaxTokens = 1000

// sessionContextKey keys the client session of a prompts/get or resources/read in the ctx
// of its handler (a tools/call has its callContext).
type sessionContextKey struct{}

// session returns the client session the request of ctx came on, or nil.
func session(ctx context.Context) *mcp.ServerSession {
	if c := callContextFrom(ctx); c != nil {
		return c.req.Session
	}
	ss, _ := ctx.Value(sessionContextKey{}).(*mcp.ServerSession)
	return ss
}

// Log sends a log message (notifications/message) to the client of the MCP request a
// handler's ctx belongs to (a tool call, a prompt or a resource), named after the tool: level
// is one of debug, info, notice, warning, error, critical, alert, emergency; data any JSON
// value, usually a string, cut to MaxLogBytes. The client chooses, with logging/setLevel,
// the least level it gets: nothing is sent before it chose one. It fails with ErrNotMCPCall
// outside an MCP request. Protocol 2026-07-28 deprecates MCP logging (SEP-2577); clients of
// earlier protocols still get it.
func Log(ctx context.Context, level mcp.LoggingLevel, data any) error {
	stream, beside := ctx.Value(fastStreamKey{}).(*fastStream)
	ss := session(ctx)
	if ss == nil && !beside {
		return ErrNotMCPCall
	}
	logger := ""
	if info, ok := runtime.CallInfoFrom(ctx); ok {
		logger = info.Tool
	}
	params := &mcp.LoggingMessageParams{Level: level, Logger: logger, Data: boundLogData(data)}
	if ss == nil {
		return stream.log(params) // a stateless call served beside the SDK (fastcall.go)
	}
	return ss.Log(ctx, params)
}

// boundLogData returns data within MaxLogBytes.
func boundLogData(data any) any {
	if s, ok := data.(string); ok {
		return cutText(s, MaxLogBytes)
	}
	b, err := json.Marshal(data)
	if err != nil {
		return "(log data that is not JSON: " + err.Error() + ")"
	}
	if len(b) <= MaxLogBytes {
		return json.RawMessage(b)
	}
	return cutText(string(b), MaxLogBytes)
}

// cutText cuts s to at most n bytes, at a rune boundary, marking the cut with "…".
func cutText(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n-len("…")], "") + "…"
}

// Sample asks the client's model for a completion (sampling/createMessage) during an MCP
// request (a tool call, a prompt or a resource) and returns its answer. The client, usually
// with its user's consent, chooses the model and may change or refuse the request. It fails
// with ErrNotMCPCall outside an MCP request and ErrNoSampling when the client cannot be
// asked. What comes back is the client's: treat it as untrusted input (its size is bounded
// by the SDK's message limit). On protocol 2026-07-28 the request goes to the client as an
// input request (toolgen_sample), and the handler runs again with the answer, as with Elicit
// (Ask names the key, or asks for several inputs at once); 2026-07-28 deprecates sampling
// (SEP-2577): a server there calls a model provider itself.
func Sample(ctx context.Context, params *mcp.CreateMessageParams) (*mcp.CreateMessageResult, error) {
	answers, err := Ask(ctx, SampleInput(sampleInput, params))
	if err != nil {
		return nil, err
	}
	return answers[sampleInput].(*mcp.CreateMessageResult), nil
}

// SampleText asks the client's model to answer prompt, as one user message, in at most
// maxTokens (DefaultSampleMaxTokens when 0 or less), and returns the text of its answer ("" for
// an answer that is not text). See Sample.
func SampleText(ctx context.Context, prompt string, maxTokens int64) (string, error) {
	if maxTokens <= 0 {
		maxTokens = DefaultSampleMaxTokens
	}
	res, err := Sample(ctx, &mcp.CreateMessageParams{
		Messages:  []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: prompt}}},
		MaxTokens: maxTokens,
	})
	if err != nil {
		return "", err
	}
	if text, ok := res.Content.(*mcp.TextContent); ok {
		return text.Text, nil
	}
	return "", nil
}

// logLevels orders MCP's log levels (RFC 5424's, least severe first).
var logLevels = map[mcp.LoggingLevel]int{"debug": 0, "info": 1, "notice": 2, "warning": 3, "error": 4, "critical": 5, "alert": 6, "emergency": 7}

// log sends a log message of the call as an event, at info and above.
func (f *fastStream) log(params *mcp.LoggingMessageParams) error {
	if level, known := logLevels[params.Level]; f.quiet || known && level < logLevels["info"] {
		return nil
	}
	data, err := json.Marshal(struct {
		JSONRPC string                    `json:"jsonrpc"`
		Method  string                    `json:"method"`
		Params  *mcp.LoggingMessageParams `json:"params"`
	}{"2.0", "notifications/message", params})
	if err != nil {
		return err
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.done {
		return nil
	}
	return f.event(data)
}
