package mcp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Over stdio, ServeStdio reads the client's lines itself: a tools/call it may serve beside
// the SDK (one request, on an initialized session of a protocol up to 2025-11-25, without a
// progress token, naming a tool the server lists) runs through the same handler as the SDK's
// and its answer is written between the SDK's lines; every other line goes to the SDK
// unchanged, through a pipe, so it sees the stream it would have read. Everything a call
// sends the client (an elicitation, a log line) still goes through the SDK's session, on
// the one stream there is, and the answers come back to it.

// MaxStdioCallsBeside bounds the calls ServeStdio runs beside the SDK at once, each on a
// goroutine of its own: a client that sends calls without waiting for their answers has the
// rest served by the SDK, as they all were before.
const MaxStdioCallsBeside = 64

// serveLines serves server's session over in and out until in ends or ctx is done, as
// mcp.Server.Run does with an mcp.StdioTransport.
func (s *served) serveLines(ctx context.Context, server *mcp.Server, in io.Reader, out io.Writer) error {
	s.transport = "stdio"  // before any request: RequestInfo.Transport
	s.tasks.on.Store(true) // tasks/* reach the line reader before the SDK
	toSDK, fromUs := io.Pipe()
	w := &lineWriter{w: out}
	ss, err := server.Connect(ctx, &mcp.IOTransport{Reader: toSDK, Writer: w}, nil)
	if err != nil {
		return err
	}
	lines := &stdioLines{served: s, ss: ss, ctx: ctx, out: w, sdk: fromUs, jobs: make(chan func()), done: make(chan struct{})}
	go func() {
		err := lines.read(in)
		close(lines.done)
		_ = fromUs.CloseWithError(err)
	}()

	closed := make(chan error, 1)
	go func() { closed <- ss.Wait() }()
	select {
	case <-ctx.Done():
		_ = ss.Close()
		<-closed
		return ctx.Err()
	case err := <-closed:
		return err
	}
}

// lineWriter writes whole lines (one message each) from the SDK and from the calls served
// beside it, one at a time, leaving out the answers to requests the client cancelled: MCP
// has a server send none (the SDK answers them still, and a client then reports an answer
// to an unknown request).
type lineWriter struct {
	mu        sync.Mutex
	w         io.Writer
	cancelled map[string]bool // request ids (their JSON) whose answer is not sent
}

// maxCancelledIDs bounds the cancelled ids a connection remembers: a cancel that comes after
// its answer leaves its id until the set is full, when it is emptied.
const maxCancelledIDs = 256

// cancel records that the answer to request id (JSON) is not to be sent.
func (l *lineWriter) cancel(id json.RawMessage) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.cancelled) >= maxCancelledIDs {
		clear(l.cancelled)
	}
	if l.cancelled == nil {
		l.cancelled = map[string]bool{}
	}
	l.cancelled[string(bytes.TrimSpace(id))] = true
}

func (l *lineWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.cancelled) > 0 {
		var m message
		if decodeMessage(bytes.TrimSpace(p), &m) == nil && m.Method == "" && len(m.ID) > 0 {
			if id := string(bytes.TrimSpace(m.ID)); l.cancelled[id] {
				delete(l.cancelled, id)
				return len(p), nil
			}
		}
	}
	return l.w.Write(p)
}

func (l *lineWriter) Close() error { return nil }

// stdioLines reads the client's lines.
type stdioLines struct {
	inflight
	running atomic.Int32 // calls served beside the SDK now
	// jobs hands a call to an idle worker; workers end when the input does (done). Reused
	// workers keep the stacks the calls grew, which a goroutine per call would grow again.
	jobs   chan func()
	done   chan struct{}
	served *served
	ss     *mcp.ServerSession
	ctx    context.Context
	out    *lineWriter
	sdk    io.Writer
}

// read passes in's lines to the SDK, but for the calls it serves, until in ends (nil) or
// fails. A line longer than the SDK's bound goes to the SDK with the rest of the input as it
// comes, so that the SDK refuses it as before.
func (l *stdioLines) read(in io.Reader) error {
	r := bufio.NewReaderSize(in, 64<<10)
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		switch {
		case errors.Is(err, bufio.ErrBufferFull):
			if len(line) <= mcp.DefaultMaxLineLength {
				continue
			}
			if _, err := l.sdk.Write(line); err != nil {
				return err
			}
			_, err := io.Copy(l.sdk, r)
			return err
		case err != nil && len(line) == 0:
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		if !l.serve(line) {
			if _, werr := l.sdk.Write(line); werr != nil {
				return werr
			}
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		line = line[:0]
	}
}

// serve serves line's call beside the SDK, when it may, and reports whether it does; a
// notifications/cancelled reaches the call it names (and goes on to the SDK).
func (l *stdioLines) serve(line []byte) bool {
	trimmed := bytes.TrimSpace(line)
	if len(trimmed) == 0 || trimmed[0] != '{' {
		return false
	}
	// The call may run after line's buffer is read into again: its message keeps a copy.
	var m message
	if decodeMessage(bytes.Clone(trimmed), &m) != nil {
		return false
	}
	if m.Method == "notifications/cancelled" {
		if id := cancelledID(m.Params); id != nil {
			l.out.cancel(id)
		}
		l.cancel(m.Params)
		return false
	}
	if m.Method != "tools/call" && !taskMethod(m.Method) || !fastID(m.ID) || len(m.ID) > MaxRequestIDBytes || len(m.Method) > MaxMethodLength {
		return false
	}
	// A session initialized on a protocol before 2026-07-28 is served as it said; else a call
	// must carry what a session held in its _meta (2026-07-28), or the SDK refuses it.
	version, initialized := statelessProtocol, l.ss.InitializeParams()
	if initialized != nil && initialized.ProtocolVersion < statelessProtocol {
		version = initialized.ProtocolVersion
	}
	if m.Method != "tools/call" {
		return version >= statelessProtocol && l.serveTask(&m)
	}
	params, client, ok := l.served.fastParams(&m, version)
	if !ok {
		return false
	}
	if version < statelessProtocol {
		client = peerOf(l.ss)
	}
	req := &mcp.CallToolRequest{Session: l.ss, Params: params}
	callCtx, beside := l.served.besideForGrant(l.ctx, req)
	if !beside {
		return false
	}
	if l.running.Add(1) > MaxStdioCallsBeside {
		l.running.Add(-1)
		return false
	}
	id := idText(m.ID)
	ctx, cancel := context.WithCancel(callCtx)
	if !l.track(id, cancel) {
		cancel()
		l.running.Add(-1)
		return false // a request id already in flight: the SDK's to answer
	}
	l.run(func() {
		data, _ := l.served.answer(ctx, req, m.ID, id, client)
		// Answered: the id is free, and this call's slot, before the client reads the answer
		// and sends its next request (which may reuse the id).
		l.untrack(id)
		cancel()
		l.running.Add(-1)
		_, _ = l.out.Write(append(data, '\n'))
	})
	return true
}

// run gives job to an idle worker, or to a new one: at most MaxStdioCallsBeside run at once.
func (l *stdioLines) run(job func()) {
	select {
	case l.jobs <- job:
	default:
		go l.work(job)
	}
}

func (l *stdioLines) work(job func()) {
	for {
		job()
		select {
		case job = <-l.jobs:
		case <-l.done:
			return
		}
	}
}

// serveTask answers a tasks/get, tasks/update or tasks/cancel of a 2026-07-28 client on a
// worker, as a call is served, and reports whether it did (within MaxStdioCallsBeside; past
// it the SDK answers, that it does not know the method).
func (l *stdioLines) serveTask(m *message) bool {
	if !l.served.tasks.on.Load() || l.running.Add(1) > MaxStdioCallsBeside {
		l.running.Add(-1)
		return false
	}
	l.run(func() {
		defer l.running.Add(-1)
		data, _ := l.served.serveTaskRequest(l.ctx, m, l.ss, nil, nil)
		_, _ = l.out.Write(append(data, '\n'))
	})
	return true
}
