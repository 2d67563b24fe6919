package mcp

import (
	"crypto/sha256"
	"encoding/base64"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
)

// Where a client puts the idempotency key of a tools/call (runtime.Call.IdempotencyKey), so
// that retrying the call after a failure (a replica that died, a connection that broke)
// never runs it twice: the key in the request's params._meta, or, over HTTP, the
// Idempotency-Key header (draft-ietf-httpapi-idempotency-key-header), which names the one call
// of its request (in a batch, put a key in each call's _meta). _meta wins when both are there.
// The key is scoped by the call's registry session: it needs a session that outlives one
// request (a stateful session, SessionFromHeader, SessionFromPrincipal), and another session's
// key finds nothing. Within a session several users share (a SessionFunc's), it is scoped by
// the authenticated user too: another user's request with the same key runs its own call. docs/scaling-out.md ("Retries run once") has the contract.
const (
	IdempotencyKeyMeta   = "io.toolgen/idempotency-key"
	IdempotencyKeyHeader = "Idempotency-Key"
)

// WithRequestIDKeys keys a tools/call that carries no idempotency key of its own by its
// JSON-RPC request id, so that a request resent as it was (by a proxy, or a client that
// retries the same message) runs once. The id is scoped by the registry session, like any
// key: MCP has a client use an id once per session, which holds of a stateful session, but a
// session shared over stateless HTTP (SessionFromHeader, SessionFromPrincipal) holds only if
// every client of it picks ids unique for the idempotency window (random ones, say); a
// client that starts again from id 1 would get an earlier call's result, or a refusal.
func WithRequestIDKeys() Option {
	return func(c *config) { c.requestIDKeys = true }
}

// idempotencyKey is the key of call req, whose JSON-RPC id is id: the client's, or the id
// itself WithRequestIDKeys, or "", scoped by the caller (callersKey).
func (s *served) idempotencyKey(req *mcp.CallToolRequest, id string) string {
	if req.Params != nil {
		if key, ok := req.Params.Meta[IdempotencyKeyMeta].(string); ok && key != "" {
			return callersKey(req, key)
		}
	}
	if req.Extra != nil {
		if key := req.Extra.Header.Get(IdempotencyKeyHeader); key != "" {
			return callersKey(req, key)
		}
	}
	if s.requestIDKeys && id != "" {
		return callersKey(req, "jsonrpc-id:"+id)
	}
	return ""
}

// callersKey is key scoped by the authenticated user of req, so that on a session several
// users share one user's key never replays another's result: a hash of both, of a fixed
// size under runtime.MaxIdempotencyKeyBytes. A call without a user, or whose key is too long
// (which the registry refuses, naming the key's own length), keeps its key as it is.
func callersKey(req *mcp.CallToolRequest, key string) string {
	user := principal(req)
	if user == "" || len(key) > runtime.MaxIdempotencyKeyBytes {
		return key
	}
	h := sha256.New()
	h.Write([]byte(user))
	h.Write([]byte{0})
	h.Write([]byte(key))
	return "user-scoped:" + base64.RawURLEncoding.EncodeToString(h.Sum(nil))
}
