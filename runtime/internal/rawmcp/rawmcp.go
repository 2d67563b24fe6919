// Package rawmcp is an MCP client written by hand, for tests of what no Go SDK speaks yet
// (the tasks extension of protocol 2026-07-28): it sends JSON-RPC requests with the
// per-request _meta and the standard headers of 2026-07-28 over stateless streamable HTTP,
// or as lines over stdio, and returns the answers as decoded JSON.
package rawmcp

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Protocol is the protocol revision the client speaks.
const Protocol = "2026-07-28"

// TasksExtension is the identifier of the MCP tasks extension.
const TasksExtension = "io.modelcontextprotocol/tasks"

// WithTasks are client capabilities declaring the tasks extension (and elicitation).
func WithTasks() map[string]any {
	return map[string]any{"elicitation": map[string]any{}, "extensions": map[string]any{TasksExtension: map[string]any{}}}
}

// Error is a JSON-RPC error answer.
type Error struct {
	Code    int64           `json:"code"`
	Message string          `json:"message"`
	Data    json.RawMessage `json:"data,omitempty"`
}

func (e *Error) Error() string { return fmt.Sprintf("JSON-RPC error %d: %s", e.Code, e.Message) }

// Answer is one response: its result or its error, and over HTTP its status.
type Answer struct {
	Result map[string]any
	Error  *Error
	Status int
}

// Client sends requests to one server. Caps are the client capabilities each request
// declares in its _meta; Header is added to every HTTP request (a bearer token, a session
// header).
type Client struct {
	URL    string    // stateless streamable HTTP endpoint; or
	Lines  io.Writer // stdio: the server's input, with Replies its output
	Caps   map[string]any
	Header http.Header
	HTTP   *http.Client

	mu      sync.Mutex
	id      int
	replies *bufio.Reader
}

// Replies sets the reader of a stdio server's output.
func (c *Client) Replies(r io.Reader) { c.replies = bufio.NewReaderSize(r, 1<<20) }

// name is what a request's Mcp-Name header carries: the tool of tools/call, the task of
// tasks/*.
func name(method string, params map[string]any) string {
	switch {
	case method == "tools/call":
		s, _ := params["name"].(string)
		return s
	case strings.HasPrefix(method, "tasks/"):
		s, _ := params["taskId"].(string)
		return s
	}
	return ""
}

// Call sends method with params (its _meta added, over what params' own _meta leaves out)
// and returns the answer; headers override the standard ones (nil values delete them).
func (c *Client) Call(method string, params map[string]any, headers map[string]*string) (Answer, error) {
	c.mu.Lock()
	c.id++
	id := c.id
	c.mu.Unlock()
	p := map[string]any{}
	for k, v := range params {
		p[k] = v
	}
	caps := c.Caps
	if caps == nil {
		caps = map[string]any{}
	}
	meta := map[string]any{
		"io.modelcontextprotocol/protocolVersion":    Protocol,
		"io.modelcontextprotocol/clientCapabilities": caps,
		"io.modelcontextprotocol/clientInfo":         map[string]any{"name": "rawmcp", "version": "1"},
	}
	if given, ok := params["_meta"].(map[string]any); ok {
		for k, v := range given { // what the caller's _meta says wins
			meta[k] = v
		}
	}
	p["_meta"] = meta
	body, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": id, "method": method, "params": p})
	if err != nil {
		return Answer{}, err
	}
	if c.Lines != nil {
		return c.line(body)
	}
	req, err := http.NewRequest(http.MethodPost, c.URL, bytes.NewReader(body))
	if err != nil {
		return Answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Mcp-Protocol-Version", Protocol)
	req.Header.Set("Mcp-Method", method)
	if n := name(method, params); n != "" {
		req.Header.Set("Mcp-Name", n)
	}
	for k, vs := range c.Header {
		for _, v := range vs {
			req.Header.Add(k, v)
		}
	}
	for k, v := range headers {
		if v == nil {
			req.Header.Del(k)
		} else {
			req.Header.Set(k, *v)
		}
	}
	hc := c.HTTP
	if hc == nil {
		hc = http.DefaultClient
	}
	resp, err := hc.Do(req)
	if err != nil {
		return Answer{}, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return Answer{}, err
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		data = lastEvent(data)
	}
	a, err := decode(data)
	a.Status = resp.StatusCode
	return a, err
}

// line sends body as a line and reads lines until the answer of its id.
func (c *Client) line(body []byte) (Answer, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, err := c.Lines.Write(append(body, '\n')); err != nil {
		return Answer{}, err
	}
	var sent struct{ ID json.RawMessage }
	_ = json.Unmarshal(body, &sent)
	for {
		line, err := c.replies.ReadBytes('\n')
		if err != nil {
			return Answer{}, err
		}
		var got struct{ ID json.RawMessage }
		if json.Unmarshal(line, &got) == nil && bytes.Equal(got.ID, sent.ID) {
			return decode(line)
		}
	}
}

func lastEvent(stream []byte) []byte {
	var last []byte
	for _, line := range bytes.Split(stream, []byte("\n")) {
		if d, ok := bytes.CutPrefix(line, []byte("data: ")); ok {
			last = d
		}
	}
	return last
}

func decode(data []byte) (Answer, error) {
	var msg struct {
		Result map[string]any `json:"result"`
		Error  *Error         `json:"error"`
	}
	if err := json.Unmarshal(data, &msg); err != nil {
		return Answer{}, fmt.Errorf("rawmcp: answer %q: %w", data, err)
	}
	return Answer{Result: msg.Result, Error: msg.Error}, nil
}

// Poll sends tasks/get for id every interval until the task's status is one of statuses (a
// terminal one if none is given), for at most limit; it returns the last tasks/get result.
func (c *Client) Poll(id string, interval, limit time.Duration, statuses ...string) (map[string]any, error) {
	if len(statuses) == 0 {
		statuses = []string{"completed", "failed", "cancelled"}
	}
	deadline := time.Now().Add(limit)
	for {
		a, err := c.Call("tasks/get", map[string]any{"taskId": id}, nil)
		if err != nil {
			return nil, err
		}
		if a.Error != nil {
			return nil, a.Error
		}
		for _, s := range statuses {
			if a.Result["status"] == s {
				return a.Result, nil
			}
		}
		if time.Now().After(deadline) {
			return a.Result, fmt.Errorf("rawmcp: task %s is %v after %s", id, a.Result["status"], limit)
		}
		time.Sleep(interval)
	}
}

// Text returns the text of the first content of a CallToolResult, "" when there is none.
func Text(result map[string]any) string {
	content, _ := result["content"].([]any)
	if len(content) == 0 {
		return ""
	}
	first, _ := content[0].(map[string]any)
	s, _ := first["text"].(string)
	return s
}
