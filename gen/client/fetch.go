package client

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Fetch connects to an MCP server through transport, lists its tools and returns the listing as
// one tools/list document, {"tools":[…]} with every page's tools in the order the server sent
// them, indented: what -save writes and ParseListing reads. The go-sdk client does the
// protocol; the listing's bytes are taken from the JSON-RPC responses as they arrive, because
// the SDK decodes schemas into maps, which lose the order of properties (and so of fields).
//
// For a streamable HTTP server, pass the transport from HTTPTransport, which taps the HTTP
// responses (the SDK's HTTP connection cannot be wrapped); any other transport (stdio, in
// memory) is wrapped here.
func Fetch(ctx context.Context, transport mcp.Transport) ([]byte, error) {
	tp, ok := transport.(*tappedTransport)
	if !ok {
		tp = &tappedTransport{Transport: transport, tap: &tap{}}
		tp.wrapConn = true
	}
	client := mcp.NewClient(&mcp.Implementation{Name: "toolgen-client", Version: "1"}, nil)
	cs, err := client.Connect(ctx, tp, nil)
	if err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	defer cs.Close()
	params := &mcp.ListToolsParams{}
	for page := 0; ; page++ {
		if page == MaxPages {
			return nil, fmt.Errorf("the server's tools/list has more than %d pages", MaxPages)
		}
		res, err := cs.ListTools(ctx, params)
		if err != nil {
			return nil, fmt.Errorf("tools/list: %w", err)
		}
		if err := tp.tap.failed(); err != nil {
			return nil, err
		}
		if got := tp.tap.count(); got != page+1 {
			return nil, fmt.Errorf("read %d tools/list answers, saw the bytes of %d (please report)", page+1, got)
		}
		if res.NextCursor == "" {
			break
		}
		params = &mcp.ListToolsParams{Cursor: res.NextCursor}
	}
	return tp.tap.document()
}

// tap keeps the raw "tools" arrays of the tools/list results read, in order.
type tap struct {
	mu    sync.Mutex
	pages []json.RawMessage
	bytes int
	err   error
}

// result looks at one JSON-RPC result: a tools/list result is the only one with a "tools"
// array.
func (t *tap) result(raw json.RawMessage) {
	var r struct {
		Tools json.RawMessage `json:"tools"`
	}
	if json.Unmarshal(raw, &r) != nil || !bytes.HasPrefix(bytes.TrimSpace(r.Tools), []byte("[")) {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	t.bytes += len(r.Tools)
	if t.bytes > MaxListingBytes {
		t.err = fmt.Errorf("the server's tools/list is over the limit of %d bytes", MaxListingBytes)
		return
	}
	t.pages = append(t.pages, r.Tools)
}

func (t *tap) count() int {
	t.mu.Lock()
	defer t.mu.Unlock()
	return len(t.pages)
}

func (t *tap) failed() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.err
}

// document joins the pages into one indented tools/list document.
func (t *tap) document() ([]byte, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var tools []json.RawMessage
	for _, p := range t.pages {
		var items []json.RawMessage
		if err := json.Unmarshal(p, &items); err != nil {
			return nil, fmt.Errorf("the server's tools/list: %w", err)
		}
		tools = append(tools, items...)
	}
	if tools == nil {
		tools = []json.RawMessage{}
	}
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i, it := range tools {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteString("]}")
	var out bytes.Buffer
	if err := json.Indent(&out, b.Bytes(), "", "  "); err != nil {
		return nil, fmt.Errorf("the server's tools/list: %w", err)
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// tappedTransport is a transport whose tools/list results are tapped: for HTTP by its http.Client
// (HTTPTransport), otherwise by wrapping the connection.
type tappedTransport struct {
	mcp.Transport
	tap      *tap
	wrapConn bool
}

func (t *tappedTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	conn, err := t.Transport.Connect(ctx)
	if err != nil || !t.wrapConn {
		return conn, err
	}
	return &tappedConn{Connection: conn, tap: t.tap}, nil
}

type tappedConn struct {
	mcp.Connection
	tap *tap
}

func (c *tappedConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Response); ok && r.Result != nil {
		c.tap.result(r.Result)
	}
	return msg, err
}

// HTTPTransport is the go-sdk's streamable HTTP client transport to endpoint, sending header
// with every request to endpoint's origin (authorization, for one), whose tools/list results
// Fetch can read. A redirect elsewhere goes without header, as http.Client sends a redirect
// to another host no Authorization of its own.
func HTTPTransport(endpoint string, header http.Header) mcp.Transport {
	t := &tap{}
	rt := &tapRoundTripper{next: http.DefaultTransport, header: header, tap: t}
	if u, err := url.Parse(endpoint); err == nil {
		rt.scheme, rt.host = u.Scheme, u.Host
	}
	return &tappedTransport{
		Transport: &mcp.StreamableClientTransport{Endpoint: endpoint, HTTPClient: &http.Client{Transport: rt}, DisableStandaloneSSE: true},
		tap:       t,
	}
}

type tapRoundTripper struct {
	next         http.RoundTripper
	header       http.Header
	scheme, host string // the endpoint's origin, the only one header is sent to
	tap          *tap
}

func (rt *tapRoundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	if req.URL.Scheme == rt.scheme && req.URL.Host == rt.host {
		for k, v := range rt.header {
			req.Header[k] = v
		}
	}
	resp, err := rt.next.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK {
		return resp, err
	}
	sse := strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream")
	resp.Body = &tapBody{ReadCloser: resp.Body, sse: sse, tap: rt.tap}
	return resp, nil
}

// tapBody reads a copy of a response body as the SDK reads it, and hands each JSON-RPC
// response to the tap before the read that completes it returns, so the tap has a page before
// the SDK's ListTools does. The body is one JSON-RPC message (application/json) or server-sent
// events whose data lines carry one each. What it holds is bounded by MaxListingBytes.
type tapBody struct {
	io.ReadCloser
	sse   bool
	tap   *tap
	buf   []byte // the body (JSON) or the current line (events)
	event []byte // the data of the current event
	over  bool
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if b.over {
		return n, err
	}
	b.buf = append(b.buf, p[:n]...)
	if b.sse {
		for {
			i := bytes.IndexByte(b.buf, '\n')
			if i < 0 {
				break
			}
			b.line(bytes.TrimSuffix(b.buf[:i], []byte("\r")))
			b.buf = b.buf[i+1:]
		}
		if err != nil {
			b.line(nil)
		}
	} else if err == io.EOF {
		b.look(b.buf)
	}
	if len(b.buf)+len(b.event) > MaxListingBytes {
		b.over, b.buf, b.event = true, nil, nil
		b.tap.fail(errors.New("a response of the server is over the listing's byte limit"))
	}
	return n, err
}

// line reads one line of server-sent events; an empty one ends the event.
func (b *tapBody) line(line []byte) {
	if len(line) == 0 {
		if len(b.event) > 0 {
			b.look(b.event)
		}
		b.event = b.event[:0]
		return
	}
	if data, ok := bytes.CutPrefix(line, []byte("data:")); ok {
		if len(b.event) > 0 {
			b.event = append(b.event, '\n')
		}
		b.event = append(b.event, bytes.TrimPrefix(data, []byte(" "))...)
	}
}

func (b *tapBody) look(data []byte) {
	if msg, err := jsonrpc.DecodeMessage(data); err == nil {
		if resp, ok := msg.(*jsonrpc.Response); ok && resp.Result != nil {
			b.tap.result(resp.Result)
		}
	}
}

func (t *tap) fail(err error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.err = err
}
