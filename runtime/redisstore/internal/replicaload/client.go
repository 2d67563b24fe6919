package main

import (
	"context"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// A write is one logical append: one item, one idempotency key, sent again under the same
// key until it is acknowledged or the server says what became of it.
type write struct {
	item, key string
	// acked: the server answered the list's length after the append (length).
	acked  bool
	length int
	// unknown: the server said the call's outcome is unknown (the replica running it died
	// before it finished), or the write was still unanswered when the run ended: the item may
	// be in the list once, or not at all, never twice.
	unknown bool
	// refused: the server said the session's state was lost, and such a write writes nothing.
	refused bool
	// excused: the client was told the session's state was lost after this write was
	// acknowledged, so its absence is a loss reported, not a silent one.
	excused bool
	// history is what its attempts got, for the report of a write found lost or duplicated.
	history []string
}

// attempt is one request of the client: a call of append or read, or a connection.
type attempt struct {
	start, end time.Duration // since the run began
	op         string        // append, read, connect
	class      string        // "" when it succeeded, else the kind of failure
	detail     string        // of a transport failure: what the proxy answered
}

// transportDetail names a transport failure by the proxy's status: 502 (a replica killed
// mid-request), 503 (a draining replica), 504 (an answer the proxy threw away on purpose).
func transportDetail(text string) string {
	switch {
	case strings.Contains(text, "Bad Gateway"):
		return "502"
	case strings.Contains(text, "Service Unavailable"):
		return "503"
	case strings.Contains(text, "Gateway Timeout"):
		return "504 answer thrown away"
	}
	return "connection"
}

// Failure classes of an attempt.
const (
	classTransport = "transport" // no MCP answer: the proxy's 502 or 504, a draining replica's 503, the connection failed
	classRetry     = "retryable" // an error result the server says to retry (store unavailable, call still running)
	classUnknown   = "outcome unknown"
	classLost      = "state lost"
	classOther     = "other"
)

// session is one client conversation: one goroutine making writes one after another, and
// reading the list back every readEvery writes.
type session struct {
	id       int
	cfg      *config
	url      string
	http     *http.Client
	t0       time.Time
	cs       *mcp.ClientSession
	writes   []*write
	attempts []attempt
	// stateLost counts the answers saying the session's state was lost.
	stateLost int
	// readProblems counts periodic reads that did not show every acknowledged write once.
	readProblems int
	// writeLatency holds, per acknowledged write, the time from its first attempt to its
	// acknowledgement, retries included.
	writeLatency []time.Duration
	others       []string // texts of error results of class other, for the report
}

func (s *session) since() time.Duration { return time.Since(s.t0) }

// connect opens an MCP client session through the proxy, in this conversation.
func (s *session) connect(ctx context.Context) error {
	if s.cs != nil {
		_ = s.cs.Close()
		s.cs = nil
	}
	for pause := 10 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		a := attempt{start: s.since(), op: "connect"}
		client := mcp.NewClient(&mcp.Implementation{Name: "replicaload", Version: "1"}, nil)
		cs, err := client.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: s.url, HTTPClient: s.http, DisableStandaloneSSE: true, MaxRetries: -1}, nil)
		a.end = s.since()
		if err == nil {
			s.attempts = append(s.attempts, a)
			s.cs = cs
			return nil
		}
		a.class, a.detail = classTransport, transportDetail(err.Error())
		s.attempts = append(s.attempts, a)
		if ctx.Err() != nil {
			return ctx.Err()
		}
		time.Sleep(pause)
	}
}

// classify tells what an error result says, from its text, as a model would read it: the
// text is all an MCP client gets.
func classify(text string) string {
	lower := strings.ToLower(text)
	switch {
	case strings.Contains(lower, "stopped before it finished"), strings.Contains(lower, "may or may not have been saved"):
		return classUnknown
	case strings.Contains(lower, "was lost by the server's store"):
		return classLost
	case strings.Contains(lower, "try the call again"), strings.Contains(lower, "try again"):
		return classRetry
	}
	return classOther
}

// call makes one attempt of a tool call and returns its text, or the class of its failure.
func (s *session) call(ctx context.Context, params *mcp.CallToolParams) (text, class string) {
	if s.cs == nil { // the last connection failed, as the run ended
		if err := s.connect(ctx); err != nil {
			return err.Error(), classTransport
		}
	}
	a := attempt{start: s.since(), op: params.Name}
	cctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	res, err := s.cs.CallTool(cctx, params)
	cancel()
	a.end = s.since()
	switch {
	case err != nil:
		a.class, text = classTransport, err.Error()
		a.detail = transportDetail(text)
	case len(res.Content) == 0:
		a.class = classOther
	default:
		if tc, ok := res.Content[0].(*mcp.TextContent); ok {
			text = tc.Text
		}
		if res.IsError {
			a.class = classify(text)
		}
	}
	s.attempts = append(s.attempts, a)
	if a.class == classOther && len(s.others) < 3 {
		s.others = append(s.others, text)
	}
	return text, a.class
}

// run makes writes until ctx ends; the write in progress then is finished (within finish).
func (s *session) run(ctx context.Context, finish time.Duration) {
	if err := s.connect(ctx); err != nil {
		return
	}
	for seq := 0; ctx.Err() == nil; seq++ {
		w := &write{item: fmt.Sprintf("s%d-%d", s.id, seq), key: rand.Text()}
		s.writes = append(s.writes, w)
		s.append(ctx, w, finish)
		if s.cfg.ReadEvery > 0 && (seq+1)%s.cfg.ReadEvery == 0 && ctx.Err() == nil {
			if list, ok := s.read(ctx); ok {
				if problems := s.check(list); problems.failed() {
					s.readProblems++
				}
			}
		}
	}
}

// append sends w until it is acknowledged, or its outcome is told, or finish has passed since
// ctx ended.
func (s *session) append(ctx context.Context, w *write, finish time.Duration) {
	first := s.since()
	give := context.WithoutCancel(ctx)
	var stop time.Time
	for pause := 10 * time.Millisecond; ; pause = min(2*pause, 200*time.Millisecond) {
		if ctx.Err() != nil {
			if stop.IsZero() {
				stop = time.Now().Add(finish)
			} else if time.Now().After(stop) {
				w.unknown = true // never answered: it may have been written
				return
			}
		}
		params := &mcp.CallToolParams{Name: "append", Arguments: map[string]any{"item": w.item},
			Meta: mcp.Meta{toolmcp.IdempotencyKeyMeta: w.key}}
		text, class := s.call(give, params)
		w.history = append(w.history, fmt.Sprintf("%.3fs %s %s", s.since().Seconds(), orOK(class), s.attempts[len(s.attempts)-1].detail))
		switch class {
		case "":
			n, err := strconv.Atoi(text)
			if err != nil {
				w.unknown = true
				s.others = append(s.others, "append answered "+text)
				return
			}
			w.acked, w.length = true, n
			s.writeLatency = append(s.writeLatency, s.since()-first)
			return
		case classUnknown, classOther:
			w.unknown = true
			return
		case classLost:
			s.lost()
			w.refused = true
			return
		case classTransport:
			time.Sleep(pause)
			_ = s.connect(give)
		case classRetry:
			time.Sleep(pause)
		}
		if s.cfg.RetryNewKey {
			w.key = rand.Text() // the deliberate break: a retry that is a new call
		}
	}
}

// lost records that the server said the session's state was lost: every write acknowledged
// so far may be gone, and was reported so.
func (s *session) lost() {
	s.stateLost++
	for _, w := range s.writes {
		if w.acked {
			w.excused = true
		}
	}
}

// read reads the session's list, retrying failures for up to the whole of ctx.
func (s *session) read(ctx context.Context) ([]string, bool) {
	for pause := 10 * time.Millisecond; ctx.Err() == nil; pause = min(2*pause, 200*time.Millisecond) {
		text, class := s.call(ctx, &mcp.CallToolParams{Name: "read", Arguments: map[string]any{}})
		switch class {
		case "":
			var list []string
			if err := json.Unmarshal([]byte(text), &list); err != nil {
				s.others = append(s.others, "read answered "+text)
				return nil, false
			}
			return list, true
		case classLost:
			s.lost()
		case classTransport:
			_ = s.connect(ctx)
		}
		time.Sleep(pause)
	}
	return nil, false
}

// problems is what a check of a session's list found.
type problems struct {
	Lost           int // acknowledged, absent, and no loss reported after
	LostReported   int // acknowledged, absent, and the client was told the state was lost
	Duplicated     int // present more than once (acknowledged or not)
	OutOfOrder     int // not at the place its acknowledged length says
	Foreign        int // in the list though this session never sent it
	RefusedPresent int // refused (state lost) and yet written
	Unknown        int // outcome unknown
	UnknownPresent int // of which written
	Acked          int
	Notes          []string // the first few writes lost or duplicated, with their attempts
	UnknownNotes   []string // the first few writes of unknown outcome, with their attempts
}

func (p *problems) note(format string, args ...any) {
	if len(p.Notes) < 5 {
		p.Notes = append(p.Notes, fmt.Sprintf(format, args...))
	}
}

func orOK(class string) string {
	if class == "" {
		return "ok"
	}
	return class
}

func (p problems) failed() bool {
	return p.Lost+p.Duplicated+p.OutOfOrder+p.Foreign+p.RefusedPresent > 0
}

func (p *problems) add(q problems) {
	p.Lost += q.Lost
	p.LostReported += q.LostReported
	p.Duplicated += q.Duplicated
	p.OutOfOrder += q.OutOfOrder
	p.Foreign += q.Foreign
	p.RefusedPresent += q.RefusedPresent
	p.Unknown += q.Unknown
	p.UnknownPresent += q.UnknownPresent
	p.Acked += q.Acked
	for _, n := range q.Notes {
		p.note("%s", n)
	}
	for _, n := range q.UnknownNotes {
		if len(p.UnknownNotes) < 8 {
			p.UnknownNotes = append(p.UnknownNotes, n)
		}
	}
}

// check holds list against the session's writes so far: every acknowledged write present
// exactly once, at the place its length said (unless a loss was reported, which starts the
// list again), every other write at most once, nothing else.
func (s *session) check(list []string) problems {
	count := make(map[string]int, len(list))
	pos := make(map[string]int, len(list))
	for i, item := range list {
		count[item]++
		if _, seen := pos[item]; !seen {
			pos[item] = i
		}
	}
	var p problems
	sent := make(map[string]bool, len(s.writes))
	for _, w := range s.writes {
		sent[w.item] = true
		c := count[w.item]
		if c > 1 {
			p.Duplicated++
			p.note("%s duplicated (%d times): %s", w.item, c, strings.Join(w.history, "; "))
		}
		switch {
		case w.acked:
			p.Acked++
			switch {
			case c == 0 && w.excused:
				p.LostReported++
			case c == 0:
				p.Lost++
				p.note("%s lost: %s", w.item, strings.Join(w.history, "; "))
			case s.stateLost == 0 && pos[w.item] != w.length-1:
				p.OutOfOrder++
			}
		case w.refused:
			if c > 0 {
				p.RefusedPresent++
			}
		case w.unknown:
			p.Unknown++
			if len(p.UnknownNotes) < 8 {
				p.UnknownNotes = append(p.UnknownNotes, fmt.Sprintf("%s (in the list %d times): %s", w.item, c, strings.Join(w.history, "; ")))
			}
			if c > 0 {
				p.UnknownPresent++
			}
		}
	}
	for item := range count {
		if !sent[item] {
			p.Foreign++
		}
	}
	return p
}
