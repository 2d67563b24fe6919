package tooltest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// ToolCall is a call a scripted model makes.
type ToolCall struct {
	// ID is the call id the agent must answer under; empty, the model numbers it ("call_1",
	// "toolu_1" on Anthropic's API, counting across the script). Gemini's API names calls by
	// name: there the ID is sent only when the script sets one.
	ID   string
	Name string
	// Args is the JSON object of arguments, as the model writes them ("{}" when empty):
	// invalid ones too, to see what the agent tells the model.
	Args string
}

// Turn is one answer of a scripted model: text, tool calls, or both.
type Turn struct {
	Text  string
	Calls []ToolCall
	// Check, when set, looks at the request this turn answers, reporting with t.Errorf (or
	// testify's assert): what the agent sent the model, tools and tool results included.
	Check func(t testing.TB, req Request)
}

// Reply is a turn in which the model answers text and calls nothing: the agent's last turn.
func Reply(text string) Turn { return Turn{Text: text} }

// CallTools is a turn in which the model calls tools, in parallel when there are several.
func CallTools(calls ...ToolCall) Turn { return Turn{Calls: calls} }

// Expect returns the turn with check looking at the request it answers (see Turn.Check).
func (turn Turn) Expect(check func(t testing.TB, req Request)) Turn {
	turn.Check = check
	return turn
}

// Request is what the agent sent a scripted model, read from its wire format.
type Request struct {
	Index  int    // from 0
	Path   string // the URL path the agent posted to
	Body   []byte // the JSON body as sent
	Model  string // the model the agent asked for
	Stream bool   // whether the agent asked for a streamed answer
	// Tools are the names of the tools the agent declared, in its order.
	Tools []string
	// ToolResults are the tool results in the conversation the agent sent, in order: those
	// of earlier turns too, since every request carries the whole conversation.
	ToolResults []ToolResult
}

// ToolResult is a tool's result as the agent sent it to the model.
type ToolResult struct {
	CallID string // the call it answers; "" on Gemini when the call had no id
	Name   string // the tool's name, where the format sends it (Gemini); "" elsewhere
	// Content is the text the model reads: the result's text (text blocks joined with
	// newlines), or on Gemini the JSON of the functionResponse's response object.
	Content string
	IsError bool // Anthropic's is_error; false elsewhere
}

// Result returns the content of the last tool result answering callID, and whether there is
// one.
func (r Request) Result(callID string) (string, bool) {
	for i := len(r.ToolResults) - 1; i >= 0; i-- {
		if r.ToolResults[i].CallID == callID {
			return r.ToolResults[i].Content, true
		}
	}
	return "", false
}

// answers reports whether res answers call: by id, or on Gemini, where a call may have
// none, by name.
func (res ToolResult) answers(call ToolCall) bool {
	if call.ID != "" && res.CallID != "" {
		return res.CallID == call.ID
	}
	return res.Name != "" && res.Name == call.Name
}

// wireFormat is one provider's API: which requests it takes, how it reads them and how it
// answers a turn.
type wireFormat interface {
	name() string
	// accepts reports whether a POST to path is a request of this API.
	accepts(path string) bool
	// defaultID is the id of the nth call of the script (from 1) that has none; "" to send
	// none.
	defaultID(n int) string
	parse(path string, body []byte) (Request, error)
	// answer writes turn as the answer to req, the nth (from 1).
	answer(w http.ResponseWriter, req Request, turn Turn, n int)
	// writeError answers with an HTTP error in the API's error shape, so its SDK reports
	// message.
	writeError(w http.ResponseWriter, status int, message string)
}

// objectArguments is a wireFormat whose calls carry their arguments as a JSON object, not a
// string: a script's Args must be one.
type objectArguments interface{ objectArgs() bool }

// Model is a scripted model: a local HTTP server speaking a provider's API, answering each
// request with the next turn of its script. It fails the test (t.Errorf) when the agent
// sends a request it cannot read, one past the script, or one that does not answer every
// call of the turn before it (the provider would refuse it too), or when a turn's Check
// fails; each of those requests is answered with an HTTP 400 in the provider's error shape,
// so the agent stops with an error. When the test ends, after the server closed, it fails
// the test for every turn left unused.
type Model struct {
	t      testing.TB
	format wireFormat
	srv    *httptest.Server

	mu       sync.Mutex
	turns    []Turn
	requests []Request
}

func newModel(t testing.TB, format wireFormat, turns []Turn) *Model {
	m := &Model{t: t, format: format, turns: make([]Turn, len(turns))}
	n := 0
	for i, turn := range turns {
		turn.Calls = append([]ToolCall(nil), turn.Calls...)
		for j := range turn.Calls {
			n++
			if turn.Calls[j].ID == "" {
				turn.Calls[j].ID = format.defaultID(n)
			}
			if strings.TrimSpace(turn.Calls[j].Args) == "" {
				turn.Calls[j].Args = "{}"
			}
			if _, ok := format.(objectArguments); ok && !isObject(turn.Calls[j].Args) {
				t.Errorf("tooltest: turn %d of the %s model calls %s with %s: this API sends arguments as a JSON object", i+1, format.name(), turn.Calls[j].Name, turn.Calls[j].Args)
				turn.Calls[j].Args = "{}"
			}
		}
		m.turns[i] = turn
	}
	t.Cleanup(m.checkConsumed) // runs after srv.Close, registered below
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

// URL returns the server's base URL, to give the provider's SDK or the framework's model in
// place of the provider's (https://api.openai.com/v1 and the like).
func (m *Model) URL() string { return m.srv.URL }

// Requests returns the requests received so far, in order.
func (m *Model) Requests() []Request {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]Request(nil), m.requests...)
}

// Request returns the i-th request received (from 0), stopping the test if there was none.
func (m *Model) Request(t testing.TB, i int) Request {
	t.Helper()
	reqs := m.Requests()
	if i >= len(reqs) {
		t.Fatalf("tooltest: the %s model received %d requests, want at least %d", m.format.name(), len(reqs), i+1)
	}
	return reqs[i]
}

func (m *Model) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil || r.Method != http.MethodPost || !m.format.accepts(r.URL.Path) {
		m.refuse(w, http.StatusNotFound, fmt.Sprintf("tooltest: the %s model got %s %s, which is not its API", m.format.name(), r.Method, r.URL.Path))
		return
	}
	req, err := m.format.parse(r.URL.Path, body)
	if err != nil {
		m.refuse(w, http.StatusBadRequest, fmt.Sprintf("tooltest: the %s model cannot read the request to %s: %v: %s", m.format.name(), r.URL.Path, err, body))
		return
	}
	m.mu.Lock()
	req.Index = len(m.requests)
	m.requests = append(m.requests, req)
	if req.Index >= len(m.turns) {
		m.mu.Unlock()
		m.refuse(w, http.StatusBadRequest, fmt.Sprintf("tooltest: the %s model got request %d, past its script of %d turns: %s", m.format.name(), req.Index+1, len(m.turns), body))
		return
	}
	turn := m.turns[req.Index]
	var previous Turn
	if req.Index > 0 {
		previous = m.turns[req.Index-1]
	}
	m.mu.Unlock()

	if missing := unanswered(previous.Calls, req.ToolResults); len(missing) > 0 {
		m.refuse(w, http.StatusBadRequest, fmt.Sprintf("tooltest: request %d to the %s model does not answer the calls %s of the turn before it", req.Index+1, m.format.name(), strings.Join(missing, ", ")))
		return
	}
	if turn.Check != nil {
		if !runCheck(m.t, turn.Check, req) {
			m.format.writeError(w, http.StatusBadRequest, fmt.Sprintf("tooltest: request %d failed its turn's check", req.Index+1))
			return
		}
	}
	m.format.answer(w, req, turn, req.Index+1)
}

// refuse fails the test with message and answers the agent with it.
func (m *Model) refuse(w http.ResponseWriter, status int, message string) {
	m.t.Errorf("%s", message)
	m.format.writeError(w, status, message)
}

// unanswered returns the ids (or names) of the calls no result answers.
func unanswered(calls []ToolCall, results []ToolResult) []string {
	var missing []string
	for _, call := range calls {
		found := false
		for _, res := range results {
			if res.answers(call) {
				found = true
				break
			}
		}
		if !found {
			missing = append(missing, call.ID+" ("+call.Name+")")
		}
	}
	return missing
}

func (m *Model) checkConsumed() {
	m.mu.Lock()
	defer m.mu.Unlock()
	for i := len(m.requests); i < len(m.turns); i++ {
		m.t.Errorf("tooltest: turn %d of the %s model (%s) was never requested: the agent stopped after %d requests", i+1, m.format.name(), describe(m.turns[i]), len(m.requests))
	}
}

// describe says what a turn answers, for a failure message.
func describe(turn Turn) string {
	var parts []string
	if turn.Text != "" {
		parts = append(parts, fmt.Sprintf("text %q", turn.Text))
	}
	for _, c := range turn.Calls {
		parts = append(parts, fmt.Sprintf("%s %s", c.Name, c.Args))
	}
	if len(parts) == 0 {
		return "an empty answer"
	}
	return strings.Join(parts, ", ")
}

// turnCheck is the t a Turn.Check gets: the test's, noting whether the check failed, so the
// model answers a failed check with an error.
type turnCheck struct {
	testing.TB
	mu     sync.Mutex
	failed bool
}

func (c *turnCheck) fail() {
	c.mu.Lock()
	c.failed = true
	c.mu.Unlock()
}

func (c *turnCheck) Errorf(format string, args ...any) { c.fail(); c.TB.Errorf(format, args...) }
func (c *turnCheck) Error(args ...any)                 { c.fail(); c.TB.Error(args...) }
func (c *turnCheck) Fail()                             { c.fail(); c.TB.Fail() }

// FailNow, Fatal and Fatalf cannot end the test from the server's goroutine: they fail the
// test, end the check and fail the request (see runCheck).
func (c *turnCheck) FailNow()                          { c.fail(); c.TB.Fail(); panic(checkStopped{}) }
func (c *turnCheck) Fatal(args ...any)                 { c.Error(args...); c.FailNow() }
func (c *turnCheck) Fatalf(format string, args ...any) { c.Errorf(format, args...); c.FailNow() }

type checkStopped struct{}

// runCheck runs a turn's check on req and reports whether it passed.
func runCheck(t testing.TB, check func(testing.TB, Request), req Request) (passed bool) {
	c := &turnCheck{TB: t}
	defer func() {
		if v := recover(); v != nil {
			if _, ok := v.(checkStopped); !ok {
				panic(v)
			}
		}
		passed = !c.failed
	}()
	check(c, req)
	return !c.failed
}

// isObject reports whether text is a JSON object.
func isObject(text string) bool {
	var v map[string]json.RawMessage
	return json.Unmarshal([]byte(text), &v) == nil && v != nil
}
