package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// The protocol revisions the load client speaks, as a go-sdk v1.8.0 client does: on
// 2025-11-25 an initialize handshake, then calls; on 2026-07-28 (the go-sdk client's default
// over stdio and stateless HTTP) one server/discover, then calls that each carry in their _meta
// what a session held, with the Mcp-Method and Mcp-Name headers over HTTP. capture_test.go holds
// the client's bytes to the real go-sdk client's.
const (
	protocol20251125 = "2025-11-25"
	protocol20260728 = "2026-07-28"
)

// clientInfo is the name the load client gives, as mcp.NewClient's Implementation.
const clientInfo = `{"name":"mcpload","version":"1"}`

// callMeta is the _meta of a 2026-07-28 request: the go-sdk client's default capabilities, its
// name and the protocol, in the order the go-sdk writes them (its keys sorted).
const callMeta = `{"io.modelcontextprotocol/clientCapabilities":{"roots":{"listChanged":true}},"io.modelcontextprotocol/clientInfo":` +
	clientInfo + `,"io.modelcontextprotocol/protocolVersion":"` + protocol20260728 + `"}`

// refusedError is a server/discover the server refused or answered without 2026-07-28: a
// go-sdk client falls back to initialize on 2025-11-25 there, so the server is not measured
// on 2026-07-28.
type refusedError struct{ why string }

func (e refusedError) Error() string {
	return "does not speak " + protocol20260728 + " (a go-sdk client falls back to " + protocol20251125 + "): " + e.why
}

// The arguments of the calls: the small benchmark document and its wrong-type variant
// (testdata/benchdata in the repository).
var (
	validArgs   = []byte(`{"city":"Tokyo","unit":"celsius"}`)
	invalidArgs = []byte(`{"city":"Tokyo","unit":42}`)
)

// child is a server running in a process of its own, so that its CPU time is its own.
type child struct {
	cmd   *exec.Cmd
	url   string // streamable HTTP endpoint, "" over stdio
	stats string
	in    io.WriteCloser // stdio
	out   *bufio.Reader  // stdio
}

// nodeModules is where the TypeScript SDK is installed (by `npm ci`).
var nodeModules = filepath.Join("..", "..", "mcp-server", "testdata", "interop", "node_modules")

// start runs server over transport in a child process.
func start(server, transport string) (*child, error) {
	var cmd *exec.Cmd
	if server == "ts" {
		node, err := exec.LookPath("node")
		if err != nil {
			return nil, err
		}
		if _, err := os.Stat(filepath.Join(nodeModules, "@modelcontextprotocol", "sdk")); err != nil {
			return nil, fmt.Errorf("the TypeScript SDK is not installed (npm ci in %s): %w", filepath.Dir(nodeModules), err)
		}
		cmd = exec.Command(node, "--expose-gc", filepath.Join("ts", "server.mjs"), transport, nodeModules)
	} else {
		self, err := os.Executable()
		if err != nil {
			return nil, err
		}
		cmd = exec.Command(self)
		cmd.Env = append(os.Environ(), "MCPLOAD_SERVE="+server+","+transport)
	}
	c := &child{cmd: cmd}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if transport == "stdio" {
		if c.in, err = cmd.StdinPipe(); err != nil {
			return nil, err
		}
		out, err := cmd.StdoutPipe()
		if err != nil {
			return nil, err
		}
		c.out = bufio.NewReaderSize(out, 64<<10)
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	lines := bufio.NewScanner(stderr)
	var said []string
	for lines.Scan() {
		line := lines.Text()
		if rest, ok := strings.CutPrefix(line, "mcpload-ready "); ok {
			for field := range strings.FieldsSeq(rest) {
				k, v, _ := strings.Cut(field, "=")
				switch {
				case k == "http" && v != "-":
					c.url = v
				case k == "stats":
					c.stats = v
				}
			}
			go func() { _, _ = io.Copy(io.Discard, stderr) }()
			return c, nil
		}
		said = append(said, line)
	}
	c.stop()
	return nil, fmt.Errorf("%s %s did not start: %s", server, transport, strings.Join(said, "\n"))
}

func (c *child) stop() {
	if c.in != nil {
		_ = c.in.Close()
	}
	_ = c.cmd.Process.Kill()
	_ = c.cmd.Wait()
}

// cpu returns the CPU time the child has used, from /proc (Linux).
func (c *child) cpu() (time.Duration, error) {
	data, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", c.cmd.Process.Pid))
	if err != nil {
		return 0, err
	}
	// Fields after the command name (which may hold spaces): state is the first; utime and
	// stime are the 12th and 13th, in clock ticks (100 a second on Linux).
	i := bytes.LastIndexByte(data, ')')
	fields := strings.Fields(string(data[i+1:]))
	if len(fields) < 13 {
		return 0, errors.New("short /proc stat")
	}
	user, _ := strconv.ParseInt(fields[11], 10, 64)
	sys, _ := strconv.ParseInt(fields[12], 10, 64)
	return time.Duration(user+sys) * 10 * time.Millisecond, nil
}

// memory returns the child's counters; gc asks for a collection first.
func (c *child) memory(gc bool) (serverStats, error) {
	url := c.stats + "stats"
	if gc {
		url += "?gc=1"
	}
	var s serverStats
	resp, err := http.Get(url)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	return s, json.NewDecoder(resp.Body).Decode(&s)
}

// caller makes tools/call requests of get_weather on one connection, one at a time, with
// the ids a go-sdk client gives them (2, 3, ... after the handshake's 1).
type caller interface {
	call(args []byte) (isError bool, err error)
}

// callBody is a tools/call request of get_weather on protocol.
func callBody(protocol string, id int64, args []byte) []byte {
	if protocol == protocol20260728 {
		return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"_meta":%s,"name":"get_weather","arguments":%s}}`, id, callMeta, args)
	}
	return fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"get_weather","arguments":%s}}`, id, args)
}

// The handshakes, with the id 1 a go-sdk client gives its first request: initialize and
// notifications/initialized on 2025-11-25, server/discover on 2026-07-28.
var (
	initializeBody  = []byte(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"clientInfo":` + clientInfo + `,"protocolVersion":"` + protocol20251125 + `","capabilities":{"roots":{"listChanged":true}}}}`)
	initializedBody = []byte(`{"jsonrpc":"2.0","method":"notifications/initialized","params":{}}`)
	discoverBody    = []byte(`{"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":` + callMeta + `}}`)
)

// discovered checks a server/discover answer: a result that lists 2026-07-28.
func discovered(msg []byte) error {
	var r struct {
		Result *struct {
			SupportedVersions []string `json:"supportedVersions"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(msg, &r); err != nil {
		return refusedError{fmt.Sprintf("answer %.200q: %v", msg, err)}
	}
	switch {
	case r.Error != nil:
		return refusedError{"JSON-RPC error: " + r.Error.Message}
	case r.Result == nil:
		return refusedError{fmt.Sprintf("no result in %.200q", msg)}
	case !slices.Contains(r.Result.SupportedVersions, protocol20260728):
		return refusedError{fmt.Sprintf("supportedVersions %q", r.Result.SupportedVersions)}
	}
	return nil
}

// answer reads a tools/call response: isError, or the JSON-RPC error as err.
func answer(msg []byte) (isError bool, err error) {
	var r struct {
		Result *struct {
			IsError           bool            `json:"isError"`
			StructuredContent json.RawMessage `json:"structuredContent"`
		} `json:"result"`
		Error *struct{ Message string } `json:"error"`
	}
	if err := json.Unmarshal(msg, &r); err != nil {
		return false, fmt.Errorf("answer %.200q: %w", msg, err)
	}
	switch {
	case r.Error != nil:
		return false, fmt.Errorf("JSON-RPC error: %s", r.Error.Message)
	case r.Result == nil:
		return false, fmt.Errorf("no result in %.200q", msg)
	case !r.Result.IsError && !bytes.Contains(r.Result.StructuredContent, []byte(`"partly cloudy"`)):
		return false, fmt.Errorf("a result without the weather: %.200q", msg)
	}
	return r.Result.IsError, nil
}

// httpCaller is one client of streamable HTTP, with its session when stateful on 2025-11-25.
type httpCaller struct {
	client   *http.Client
	url      string
	protocol string
	session  string
	version  string // the Mcp-Protocol-Version header: none before initialize's answer
	id       int64
}

// newHTTPClient is the client of n callers; like the go-sdk client's default (http.DefaultClient),
// it asks for gzip.
func newHTTPClient(conns int) *http.Client {
	return &http.Client{Transport: &http.Transport{MaxIdleConns: conns, MaxIdleConnsPerHost: conns}, Timeout: time.Minute}
}

// post sends one JSON-RPC message of method (about tool, for tools/call) and returns the JSON
// of the answer (from JSON or SSE).
func (h *httpCaller) post(body []byte, method, tool string) ([]byte, http.Header, error) {
	req, err := http.NewRequest(http.MethodPost, h.url, bytes.NewReader(body))
	if err != nil {
		return nil, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if h.version != "" {
		req.Header.Set("Mcp-Protocol-Version", h.version)
	}
	if h.session != "" {
		req.Header.Set("Mcp-Session-Id", h.session)
	}
	if h.protocol == protocol20260728 {
		req.Header.Set("Mcp-Method", method)
		if tool != "" {
			req.Header.Set("Mcp-Name", tool)
		}
	}
	resp, err := h.client.Do(req)
	if err != nil {
		return nil, nil, err
	}
	data, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, nil, err
	}
	if resp.StatusCode/100 != 2 {
		return nil, nil, fmt.Errorf("HTTP %d: %.200s", resp.StatusCode, data)
	}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "text/event-stream") {
		var msg []byte
		for line := range bytes.SplitSeq(data, []byte("\n")) {
			if d, ok := bytes.CutPrefix(line, []byte("data:")); ok && bytes.Contains(d, []byte(`"id"`)) {
				msg = bytes.TrimSpace(d)
			}
		}
		data = msg
	}
	return data, resp.Header, nil
}

// open does what a go-sdk client's Connect sends: on 2025-11-25 initialize (which opens a
// session when stateful) and notifications/initialized, on 2026-07-28 server/discover.
func (h *httpCaller) open(stateful bool) error {
	h.id = 1
	if h.protocol == protocol20260728 {
		h.version = protocol20260728
		msg, _, err := h.post(discoverBody, "server/discover", "")
		if err != nil {
			return refusedError{"server/discover: " + err.Error()}
		}
		return discovered(msg)
	}
	_, hdr, err := h.post(initializeBody, "initialize", "")
	if err != nil {
		return fmt.Errorf("initialize: %w", err)
	}
	h.version = protocol20251125
	if h.session = hdr.Get("Mcp-Session-Id"); stateful && h.session == "" {
		return errors.New("initialize: no Mcp-Session-Id")
	}
	if _, _, err := h.post(initializedBody, "notifications/initialized", ""); err != nil {
		return fmt.Errorf("notifications/initialized: %w", err)
	}
	return nil
}

func (h *httpCaller) call(args []byte) (bool, error) {
	h.id++
	msg, _, err := h.post(callBody(h.protocol, h.id, args), "tools/call", "get_weather")
	if err != nil {
		return false, err
	}
	return answer(msg)
}

// stdioCaller is the client of a server over its stdin and stdout.
type stdioCaller struct {
	in       io.Writer
	out      *bufio.Reader
	protocol string
	id       int64
}

func (s *stdioCaller) roundTrip(msg []byte, wantAnswer bool) ([]byte, error) {
	if _, err := s.in.Write(append(msg, '\n')); err != nil {
		return nil, err
	}
	if !wantAnswer {
		return nil, nil
	}
	line, err := s.out.ReadBytes('\n')
	return line, err
}

// open sends what a go-sdk client's Connect does over stdio: as over HTTP, initialize on
// 2025-11-25, server/discover on 2026-07-28.
func (s *stdioCaller) open() error {
	s.id = 1
	if s.protocol == protocol20260728 {
		line, err := s.roundTrip(discoverBody, true)
		if err != nil {
			return err
		}
		return discovered(line)
	}
	if _, err := s.roundTrip(initializeBody, true); err != nil {
		return err
	}
	_, err := s.roundTrip(initializedBody, false)
	return err
}

func (s *stdioCaller) call(args []byte) (bool, error) {
	s.id++
	line, err := s.roundTrip(callBody(s.protocol, s.id, args), true)
	if err != nil {
		return false, err
	}
	return answer(line)
}

// callers returns n clients of the child on protocol, each after its handshake. On 2026-07-28
// there is no session, stateful or not: a go-sdk client sends the same as to a stateless server.
func callers(c *child, transport, protocol string, n int) ([]caller, error) {
	if transport == "stdio" {
		s := &stdioCaller{in: c.in, out: c.out, protocol: protocol}
		return []caller{s}, s.open()
	}
	client := newHTTPClient(n)
	out := make([]caller, n)
	for i := range out {
		h := &httpCaller{client: client, url: c.url, protocol: protocol}
		if err := h.open(transport == "stateful"); err != nil {
			return nil, err
		}
		out[i] = h
	}
	return out, nil
}

// drive makes calls from every caller at once until stop says so, and returns their
// latencies. Each answer is checked: a valid call must bring the weather, an invalid one a
// tool error.
func drive(cs []caller, args []byte, invalid bool, stop func(done int64) bool) ([]time.Duration, error) {
	var (
		wg    sync.WaitGroup
		done  atomic.Int64
		mu    sync.Mutex
		lat   []time.Duration
		first error
	)
	for _, c := range cs {
		wg.Go(func() {
			var mine []time.Duration
			for !stop(done.Load()) {
				t := time.Now()
				isError, err := c.call(args)
				mine = append(mine, time.Since(t))
				if err == nil && isError != invalid {
					err = fmt.Errorf("isError %v for %s", isError, args)
				}
				if err != nil {
					mu.Lock()
					first = cmpOr(first, err)
					mu.Unlock()
					return
				}
				done.Add(1)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return lat, first
}

func cmpOr(a, b error) error {
	if a != nil {
		return a
	}
	return b
}

// measurement is one run of one server.
type measurement struct {
	Calls        int
	Elapsed      time.Duration
	P50, P99     time.Duration
	CPUPerCall   time.Duration
	AllocsPerOp  float64 // -1: not a Go server
	BytesPerOp   float64
	IdleSession  float64 // bytes a stateful session holds after one call; 0: not measured
	IdleSessions int
}

func (m measurement) callsPerSec() float64 { return float64(m.Calls) / m.Elapsed.Seconds() }

// run measures server over transport on protocol: clients calling for d after a warm-up, then,
// stateful on 2025-11-25, the memory of idle sessions.
func run(server, transport, protocol string, clients int, invalid bool, d time.Duration, idle int) (measurement, error) {
	var m measurement
	c, err := start(server, transport)
	if err != nil {
		return m, err
	}
	defer c.stop()
	cs, err := callers(c, transport, protocol, clients)
	if err != nil {
		return m, err
	}
	args := validArgs
	if invalid {
		args = invalidArgs
	}
	warm := time.Now().Add(d / 5)
	if _, err := drive(cs, args, invalid, func(int64) bool { return time.Now().After(warm) }); err != nil {
		return m, err
	}
	before, err := c.memory(false)
	if err != nil {
		return m, err
	}
	cpu0, err := c.cpu()
	if err != nil {
		return m, err
	}
	t0 := time.Now()
	end := t0.Add(d)
	lat, err := drive(cs, args, invalid, func(int64) bool { return time.Now().After(end) })
	if err != nil {
		return m, err
	}
	m.Elapsed = time.Since(t0)
	cpu1, _ := c.cpu()
	after, err := c.memory(false)
	if err != nil {
		return m, err
	}
	m.Calls = len(lat)
	slices.Sort(lat)
	m.P50, m.P99 = lat[len(lat)/2], lat[len(lat)*99/100]
	m.CPUPerCall = (cpu1 - cpu0) / time.Duration(m.Calls)
	m.AllocsPerOp, m.BytesPerOp = -1, -1
	if server != "ts" {
		// The stats request between the snapshots allocates a few objects; a call thousands.
		m.AllocsPerOp = float64(after.Mallocs-before.Mallocs) / float64(m.Calls)
		m.BytesPerOp = float64(after.TotalAlloc-before.TotalAlloc) / float64(m.Calls)
	}
	if transport == "stateful" && protocol == protocol20251125 && idle > 0 {
		if m.IdleSession, err = idleSessionBytes(c, server, idle); err != nil {
			return m, err
		}
		m.IdleSessions = idle
	}
	return m, nil
}

// idleSessionBytes opens n more stateful sessions, each making one call, and returns what
// the server holds for each once they are idle: heap in use and stacks after a collection.
// For a Go server it says on stderr how that splits: live objects (exact), heap in use (live
// objects and the free room of the spans they are in; after a load, new sessions first fill
// the room its garbage left), and goroutine stacks.
func idleSessionBytes(c *child, server string, n int) (float64, error) {
	before, err := c.memory(true)
	if err != nil {
		return 0, err
	}
	cs, err := callers(c, "stateful", protocol20251125, n)
	if err != nil {
		return 0, err
	}
	for _, cl := range cs {
		if _, err := cl.call(validArgs); err != nil {
			return 0, err
		}
	}
	time.Sleep(100 * time.Millisecond) // let the last responses' goroutines end
	after, err := c.memory(true)
	if err != nil {
		return 0, err
	}
	per := func(after, before uint64) float64 { return (float64(after) - float64(before)) / float64(n) }
	if after.HeapAlloc > 0 {
		fmt.Fprintf(os.Stderr, "%s idle session: live objects %.0f B, heap in use %.0f B, stacks %.0f B\n", server,
			per(after.HeapAlloc, before.HeapAlloc), per(after.Live-after.Stacks, before.Live-before.Stacks), per(after.Stacks, before.Stacks))
	}
	return per(after.Live, before.Live), nil
}
