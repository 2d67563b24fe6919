package mcp

import (
	"bytes"
	"encoding/json"
	"mime"
	"net"
	"net/http"
	"net/netip"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// A tools/call on stateless HTTP is served here, beside the go-sdk, when it is one that the
// SDK would serve without reaching the client: one JSON-RPC request on a protocol up to
// 2025-11-25 (on those, stateless HTTP cannot send the client a request), without a
// progress token, on a tool this server lists. The SDK would decode it five times, each
// with a 32 KB buffer, and connect a session for it; here it is decoded once, run through
// the same handler (served.serveCall) and answered with JSON. Everything else (initialize,
// tools/list, resources, protocol 2026-07-28, progress, calls the SDK would refuse) goes to
// the SDK as before. docs/benchmarks.md has the measurements that decided it.

// callParams is what the fast path reads of tools/call params.
type callParams struct {
	Name           string          `json:"name"`
	Arguments      json.RawMessage `json:"arguments"`
	Meta           json.RawMessage `json:"_meta"`
	InputResponses json.RawMessage `json:"inputResponses"`
	RequestState   json.RawMessage `json:"requestState"`
}

// callMeta is what decides, in params._meta, that a call goes to the SDK.
type callMeta struct {
	ProgressToken   json.RawMessage `json:"progressToken"`
	ProtocolVersion json.RawMessage `json:"io.modelcontextprotocol/protocolVersion"`
}

// fastVersions are the protocol versions (the Mcp-Protocol-Version header) served here: the
// SDK supports them, and on them a stateless server cannot reach the client. No header
// means 2025-03-26.
var fastVersions = map[string]bool{"": true, "2025-03-26": true, "2025-06-18": true, "2025-11-25": true}

// serveFast answers r, whose body holds the one message m, and reports whether it did; when
// it did not, r is the SDK's to serve.
func (s *served) serveFast(w http.ResponseWriter, r *http.Request, m *message) bool {
	if m.Method != "tools/call" || !fastID(m.ID) || !fastHTTP(r) {
		return false
	}
	var p callParams
	if json.Unmarshal(m.Params, &p) != nil || p.Name == "" || len(p.InputResponses) > 0 || len(p.RequestState) > 0 || !s.lists(p.Name) {
		return false
	}
	var meta map[string]any
	if len(p.Meta) > 0 {
		var cm callMeta
		if json.Unmarshal(p.Meta, &cm) != nil || len(cm.ProgressToken) > 0 || len(cm.ProtocolVersion) > 0 {
			return false
		}
		if s.traceCtx != nil && json.Unmarshal(p.Meta, &meta) != nil {
			return false
		}
	}
	req := &mcp.CallToolRequest{
		Params: &mcp.CallToolParamsRaw{Meta: meta, Name: p.Name, Arguments: p.Arguments},
		Extra:  &mcp.RequestExtra{TokenInfo: auth.TokenInfoFromContext(r.Context()), Header: r.Header},
	}
	ctx := r.Context()
	if s.traceCtx != nil {
		ctx = s.traceCtx(ctx, meta)
	}
	res := s.serveCall(ctx, req, idText(m.ID))
	data, err := json.Marshal(struct {
		JSONRPC string              `json:"jsonrpc"`
		ID      json.RawMessage     `json:"id"`
		Result  *mcp.CallToolResult `json:"result"`
	}{"2.0", m.ID, res})
	if err != nil {
		data, _ = json.Marshal(struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  any             `json:"result"`
		}{"2.0", m.ID, Result(internalError(p.Name))})
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write(data)
	return true
}

// lists reports whether the server lists the tool name (AddTools); a Handler alone serves
// no HTTP.
func (s *served) lists(name string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.names[name]
}

// fastID reports whether id is a JSON-RPC request id the fast path repeats: a string or a
// number.
func fastID(id json.RawMessage) bool {
	id = bytes.TrimSpace(id)
	return len(id) > 0 && (id[0] == '"' || id[0] == '-' || id[0] >= '0' && id[0] <= '9')
}

// idText is a request id as Call.ID has it: a string's text, a number's digits.
func idText(id json.RawMessage) string {
	var s string
	if json.Unmarshal(id, &s) == nil {
		return s
	}
	return string(bytes.TrimSpace(id))
}

// fastHTTP reports whether the SDK's stateless handler would take r's message to its
// server: a POST of application/json accepting both JSON and an event stream, on a protocol
// served here, without a session id, past its DNS-rebinding check.
func fastHTTP(r *http.Request) bool {
	if r.Method != http.MethodPost || r.Header.Get(sessionIDHeader) != "" || !fastVersions[r.Header.Get("Mcp-Protocol-Version")] {
		return false
	}
	if mediaType, _, err := mime.ParseMediaType(r.Header.Get("Content-Type")); err != nil || mediaType != "application/json" {
		return false
	}
	if json, stream := accepts(r.Header.Values("Accept")); !json || !stream {
		return false
	}
	if local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr); ok && local != nil && loopback(local.String()) && !loopback(r.Host) {
		return false
	}
	return true
}

// accepts reads Accept as the go-sdk does.
func accepts(values []string) (json, stream bool) {
	for _, value := range values {
		for raw := range strings.SplitSeq(value, ",") {
			base, _, _ := strings.Cut(raw, ";")
			switch strings.ToLower(strings.TrimSpace(base)) {
			case "application/json", "application/*":
				json = true
			case "text/event-stream", "text/*":
				stream = true
			case "*/*":
				json, stream = true, true
			}
		}
	}
	return json, stream
}

// loopback reports whether a host (with or without a port) is a loopback one, as the go-sdk
// judges it.
func loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		host = strings.Trim(addr, "[]")
	}
	if host == "localhost" {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.IsLoopback()
}

// internalError is the result of a call whose result could not be encoded.
func internalError(tool string) runtime.Result {
	return runtime.Result{Text: tool + " produced a result that could not be encoded.", IsError: true}
}
