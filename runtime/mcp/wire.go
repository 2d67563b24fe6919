package mcp

import (
	"encoding/json"
	"errors"
	"hash/maphash"
	"io"
	"sync/atomic"

	"github.com/go-faster/jx"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// The calls served beside the SDK read their JSON-RPC request here, once and without
// reflection, as the SDK's JSON reads it: member names matched exactly (it does not fold
// case, as encoding/json does), the last of repeated members kept, nothing after the value.
// What comes back slices the input: keep the input while it is used.

var errTrailingData = errors.New("data after the JSON value")

// decodeMessage reads one JSON-RPC message (an object, not a batch).
func decodeMessage(data []byte, m *message) error {
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(data)
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "id":
			m.ID, err = rawValue(d)
		case "method":
			m.Method, err = d.Str()
		case "params":
			m.Params, err = rawValue(d)
		default:
			err = d.Skip()
		}
		return err
	})
	return end(d, err)
}

// decodeCallParams reads the params of a tools/call.
func decodeCallParams(data []byte, p *callParams) error {
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(data)
	var responses json.RawMessage
	err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
		var err error
		switch string(key) {
		case "name":
			p.Name, err = d.Str()
		case "arguments":
			p.Arguments, err = rawValue(d)
		case "_meta":
			p.Meta, err = rawValue(d)
		case "inputResponses":
			responses, err = rawValue(d)
		case "requestState":
			p.RequestState, err = d.Str()
		default:
			err = d.Skip()
		}
		return err
	})
	if err = end(d, err); err != nil {
		return err
	}
	if len(responses) > 0 && string(responses) != "null" {
		return json.Unmarshal(responses, &p.InputResponses) // rare: the answers a call brings
	}
	return nil
}

// rawValue returns the next value's JSON.
func rawValue(d *jx.Decoder) (json.RawMessage, error) {
	raw, err := d.Raw()
	return json.RawMessage(raw), err
}

// end reports err, or errTrailingData when anything but white space follows the value d read
// from data.
func end(d *jx.Decoder, err error) error {
	if err != nil {
		return err
	}
	if d.Next() != jx.Invalid {
		return errTrailingData
	}
	if err := d.Skip(); !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return errTrailingData // a byte that starts no value
	}
	return nil
}

// paramLength returns the length in bytes of the string member key of params (the last one,
// decoded), or 0 when params is no object or has none.
func paramLength(params json.RawMessage, key string) int {
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(params)
	n := 0
	err := d.ObjBytes(func(d *jx.Decoder, k []byte) error {
		if string(k) != key || d.Next() != jx.String {
			return d.Skip()
		}
		s, err := d.StrBytes()
		n = len(s)
		return err
	})
	if err != nil {
		return 0
	}
	return n
}

// maxMetaDepth bounds the nesting of a _meta the fast path decodes, as the SDK's JSON does
// (deeper goes to the SDK, which refuses it).
const maxMetaDepth = 1000

var errTooDeep = errors.New("JSON nested too deeply")

// decodeMeta reads params._meta as encoding/json reads it into a map[string]any (objects as
// maps, arrays as []any, numbers as float64, the last of repeated members kept), with fewer
// allocations: every 2026-07-28 call carries one.
func decodeMeta(data []byte) (map[string]any, error) {
	d := jx.GetDecoder()
	defer jx.PutDecoder(d)
	d.ResetBytes(data)
	if d.Next() == jx.Null {
		return nil, end(d, d.Null())
	}
	v, err := anyValue(d, 0, false)
	if err = end(d, err); err != nil {
		return nil, err
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("_meta is not an object")
	}
	return m, nil
}

// anyValue reads the value at d; repeated says it is one every call of a client repeats (its
// name and version), worth keeping in recentValues.
func anyValue(d *jx.Decoder, depth int, repeated bool) (any, error) {
	if depth > maxMetaDepth {
		return nil, errTooDeep
	}
	switch d.Next() {
	case jx.String:
		b, err := d.StrBytes()
		if v, ok := metaValues[string(b)]; ok {
			return v, err
		}
		if repeated && err == nil {
			return recentValues.value(b), nil
		}
		return string(b), err
	case jx.Number:
		return d.Float64()
	case jx.Bool:
		return d.Bool()
	case jx.Null:
		return nil, d.Null()
	case jx.Array:
		list := []any{}
		err := d.Arr(func(d *jx.Decoder) error {
			v, err := anyValue(d, depth+1, false)
			list = append(list, v)
			return err
		})
		return list, err
	case jx.Object:
		m := map[string]any{}
		err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
			name, ok := metaKeys[string(key)]
			if !ok {
				name = string(key)
			}
			v, err := anyValue(d, depth+1, ok && (name == "name" || name == "version"))
			m[name] = v
			return err
		})
		return m, err
	}
	return nil, d.Skip() // invalid: Skip reports it
}

// metaKeys and metaValues are the member names and string values every current client's
// _meta repeats (a go-sdk client's on 2026-07-28: its protocol version, info and
// capabilities), which decodeMeta then neither copies nor boxes: 8 allocations for a go-sdk
// client's _meta: its four objects.
var (
	metaKeys   = map[string]string{}
	metaValues = map[string]any{}
)

// recentValues keeps the last clients' names and versions, boxed: a direct-mapped cache of
// 64 entries, so a client sending new ones on every call only replaces entries (one
// allocation, as without it), and one client cannot grow it.
var recentValues valueCache

type valueCache struct {
	seed    maphash.Seed
	entries [64]atomic.Pointer[cachedValue]
}

type cachedValue struct {
	text  string
	boxed any
}

// value returns b as a string in an interface, the one it keeps when b is short.
func (c *valueCache) value(b []byte) any {
	if len(b) > 64 {
		return string(b)
	}
	slot := &c.entries[maphash.Bytes(c.seed, b)%uint64(len(c.entries))]
	if e := slot.Load(); e != nil && e.text == string(b) {
		return e.boxed
	}
	text := string(b)
	slot.Store(&cachedValue{text: text, boxed: text})
	return text
}

func init() {
	recentValues.seed = maphash.MakeSeed()
	for _, k := range []string{
		mcp.MetaKeyProtocolVersion, mcp.MetaKeyClientInfo, mcp.MetaKeyClientCapabilities,
		"progressToken", "traceparent", "tracestate", IdempotencyKeyMeta, MetaRun,
		"name", "title", "version", "roots", "listChanged", "sampling", "elicitation", "form",
		"url", "tools", "context", "experimental", "extensions",
	} {
		metaKeys[k] = k
	}
	for _, v := range []string{"2025-06-18", "2025-11-25", statelessProtocol} {
		metaValues[v] = v
	}
}
