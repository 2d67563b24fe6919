package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// config is one run's settings (see the flags in main.go).
type config struct {
	Sessions      int
	Duration      time.Duration
	Persist       bool
	Kill          bool          // SIGKILL a replica at a fifth of the run, restart it after Down
	Down          time.Duration // how long the killed replica stays down
	RestartRedis  bool          // restart Redis at 45% of the run
	RedisRestarts int           // how many times, redisRestartGap apart
	Roll          bool          // a drained rolling restart (SIGTERM) of every replica at 70%
	LoseAnswers   float64
	Pass503       bool // the proxy passes a draining replica's 503 on instead of trying the next replica
	RetryNewKey   bool // the deliberate break: retries under a new key
	Lease         time.Duration
	MaxCalls      int
	ReadEvery     int
	Grace         time.Duration // after an event's end, still inside its window
	Logs          io.Writer     // the replicas' and Redis's stderr
}

// redisRestartGap is the time between two restarts of Redis (config.RedisRestarts).
const redisRestartGap = 200 * time.Millisecond

// event is a disruption: SIGKILL of a replica, a Redis restart, a rolling restart.
type event struct {
	name       string
	start, end time.Duration
}

// report is what a run measured and found.
type report struct {
	cfg                config
	loadStart, loadEnd string
	elapsed            time.Duration
	events             []event
	attempts           int
	okCalls            int
	okAppends, okReads int
	p50, p99           time.Duration    // of successful attempts
	p50Out, p99Out     time.Duration    // of successful attempts outside every window
	writeP50, writeP99 time.Duration    // acknowledged writes, first attempt to acknowledgement
	errorsIn           []map[string]int // by event
	errorsOut          map[string]int
	writes, refused    int
	stateLost          int
	readProblems       int
	answersLost        int64
	drained            int64
	found              problems
	others             []string
}

// failed reports whether the run found an acknowledged write lost (and not reported) or
// duplicated, or anything else no correct run shows.
func (r *report) failed() bool {
	return r.found.failed() || r.readProblems > 0 || r.cfg.Persist && r.stateLost > 0
}

func loadavg() string {
	data, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return "unknown"
	}
	f := strings.Fields(string(data))
	if len(f) < 3 {
		return "unknown"
	}
	return strings.Join(f[:3], " ")
}

// run starts Redis, three replicas and the proxy, runs the sessions with the disruptions, and
// checks what the sessions' lists hold.
func run(cfg config) (*report, error) {
	if cfg.Logs == nil {
		cfg.Logs = io.Discard
	}
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, fmt.Errorf("redis-server is not installed (apt-get install redis-server): %w", err)
	}
	dir, err := os.MkdirTemp("", "replicaload-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	rep := &report{cfg: cfg, loadStart: loadavg(), errorsOut: map[string]int{}}

	rds, err := startRedis(bin, dir, cfg.Persist)
	if err != nil {
		return nil, err
	}
	defer rds.kill()
	replicas := make([]*replicaProc, 3)
	for i := range replicas {
		if replicas[i], err = newReplica(rds.addr, cfg.Lease, cfg.MaxCalls, cfg.Logs); err != nil {
			return nil, err
		}
		defer func(p *replicaProc) { p.signal(syscall.SIGKILL) }(replicas[i])
	}
	rr := &roundRobin{loseAnswers: cfg.LoseAnswers, pass503: cfg.Pass503}
	for _, p := range replicas {
		rr.backends = append(rr.backends, p.addr)
	}
	url, stopProxy, err := startProxy(rr)
	if err != nil {
		return nil, err
	}
	defer stopProxy()

	clientTransport := &http.Transport{
		DialContext:         (&net.Dialer{Timeout: time.Second}).DialContext,
		MaxIdleConns:        256,
		MaxIdleConnsPerHost: 256,
	}
	defer clientTransport.CloseIdleConnections()
	t0 := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), cfg.Duration)
	defer cancel()
	sessions := make([]*session, cfg.Sessions)
	var wg sync.WaitGroup
	for i := range sessions {
		conv := fmt.Sprintf("conversation-%d", i)
		sessions[i] = &session{id: i, cfg: &cfg, url: url, t0: t0,
			http: &http.Client{Transport: withHeader{conversationHeader, conv, clientTransport}}}
		wg.Go(func() { sessions[i].run(ctx, 30*time.Second) })
	}

	var events []event
	var eventErr error
	at := func(frac float64) bool {
		select {
		case <-time.After(time.Until(t0.Add(time.Duration(frac * float64(cfg.Duration))))):
			return true
		case <-ctx.Done():
			return false
		}
	}
	since := func() time.Duration { return time.Since(t0) }
	if cfg.Kill && at(0.2) {
		ev := event{name: fmt.Sprintf("SIGKILL of a replica, restarted %s later", cfg.Down), start: since()}
		replicas[1].signal(syscall.SIGKILL)
		time.Sleep(cfg.Down)
		eventErr = replicas[1].start()
		ev.end = since()
		events = append(events, ev)
	}
	if cfg.RestartRedis && eventErr == nil && at(0.45) {
		ev := event{name: "Redis restarted (SIGTERM, then started again on its port)", start: since()}
		if cfg.RedisRestarts > 1 {
			ev.name = fmt.Sprintf("Redis restarted %d times, %s apart (SIGTERM, then started again on its port)", cfg.RedisRestarts, redisRestartGap)
		}
		for i := range max(cfg.RedisRestarts, 1) {
			if i > 0 {
				time.Sleep(redisRestartGap)
			}
			rds.stop(syscall.SIGTERM)
			if eventErr = rds.start(); eventErr != nil {
				break
			}
		}
		ev.end = since()
		events = append(events, ev)
	}
	if cfg.Roll && eventErr == nil && at(0.7) {
		ev := event{name: "drained rolling restart (SIGTERM each replica in turn, start it again)", start: since()}
		for _, p := range replicas {
			p.signal(syscall.SIGTERM)
			if eventErr = p.start(); eventErr != nil {
				break
			}
		}
		ev.end = since()
		events = append(events, ev)
	}
	wg.Wait()
	rep.elapsed = since()
	if eventErr != nil {
		return nil, eventErr
	}

	// The final read of each session, once every write has ended.
	final, cancelFinal := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancelFinal()
	for _, s := range sessions {
		list, ok := s.read(final)
		if !ok {
			return nil, fmt.Errorf("session %d: the list could not be read back", s.id)
		}
		rep.found.add(s.check(list))
		if s.cs != nil {
			_ = s.cs.Close()
		}
	}
	rep.loadEnd = loadavg()
	rep.events = events
	for range events {
		rep.errorsIn = append(rep.errorsIn, map[string]int{})
	}
	rep.answersLost, rep.drained = rr.lost.Load(), rr.drained.Load()
	summarize(rep, sessions)
	return rep, nil
}

// inside returns the index of the first event whose window (its time, and grace after) an
// attempt overlaps, or -1.
func inside(a attempt, events []event, grace time.Duration) int {
	for i, ev := range events {
		if a.start <= ev.end+grace && a.end >= ev.start {
			return i
		}
	}
	return -1
}

func percentile(d []time.Duration, p float64) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[min(len(d)-1, int(float64(len(d))*p))]
}

func summarize(rep *report, sessions []*session) {
	var all, out, writes []time.Duration
	for _, s := range sessions {
		rep.writes += len(s.writes)
		rep.stateLost += s.stateLost
		rep.readProblems += s.readProblems
		rep.others = append(rep.others, s.others...)
		writes = append(writes, s.writeLatency...)
		for _, w := range s.writes {
			if w.refused {
				rep.refused++
			}
		}
		for _, a := range s.attempts {
			if a.op == "connect" && a.class == "" {
				continue // not a call
			}
			rep.attempts++
			in := inside(a, rep.events, rep.cfg.Grace)
			if a.class != "" {
				name := a.op + ": " + a.class
				if a.detail != "" {
					name += " " + a.detail
				}
				if in >= 0 {
					rep.errorsIn[in][name]++
				} else {
					rep.errorsOut[name]++
				}
				continue
			}
			rep.okCalls++
			if a.op == "append" {
				rep.okAppends++
			} else {
				rep.okReads++
			}
			all = append(all, a.end-a.start)
			if in < 0 {
				out = append(out, a.end-a.start)
			}
		}
	}
	rep.p50, rep.p99 = percentile(all, 0.5), percentile(all, 0.99)
	rep.p50Out, rep.p99Out = percentile(out, 0.5), percentile(out, 0.99)
	rep.writeP50, rep.writeP99 = percentile(writes, 0.5), percentile(writes, 0.99)
}

func errorsText(m map[string]int) string {
	if len(m) == 0 {
		return "none"
	}
	keys := make([]string, 0, len(m))
	total := 0
	for k, n := range m {
		keys = append(keys, k)
		total += n
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return fmt.Sprintf("%d (%s)", total, strings.Join(parts, ", "))
}

func ms(d time.Duration) string { return d.Round(100 * time.Microsecond).String() }

// print writes the report.
func (r *report) print(w io.Writer) {
	c := r.cfg
	redisMode := "append-only file, appendfsync always"
	if !c.Persist {
		redisMode = "no persistence"
	}
	fmt.Fprintf(w, "replicaload: %d sessions for %s, 3 replicas behind a round-robin proxy, Redis with %s\n", c.Sessions, c.Duration, redisMode)
	if c.LoseAnswers > 0 {
		fmt.Fprintf(w, "the proxy throws away %.1f%% of append answers (%d)\n", 100*c.LoseAnswers, r.answersLost)
	}
	if c.RetryNewKey {
		fmt.Fprintln(w, "BROKEN ON PURPOSE: retries send a new idempotency key")
	}
	fmt.Fprintf(w, "load average (1, 5, 15 min): %s at the start, %s at the end\n", r.loadStart, r.loadEnd)
	for _, ev := range r.events {
		fmt.Fprintf(w, "  %6.2fs–%6.2fs  %s\n", ev.start.Seconds(), ev.end.Seconds(), ev.name)
	}
	secs := r.elapsed.Seconds()
	fmt.Fprintf(w, "calls: %d attempts, %d answered (%d append, %d read): %.0f calls/s\n", r.attempts, r.okCalls, r.okAppends, r.okReads, float64(r.okCalls)/secs)
	fmt.Fprintf(w, "latency of answered calls: p50 %s, p99 %s; outside the windows p50 %s, p99 %s\n", ms(r.p50), ms(r.p99), ms(r.p50Out), ms(r.p99Out))
	fmt.Fprintf(w, "acknowledged writes, first attempt to acknowledgement: p50 %s, p99 %s\n", ms(r.writeP50), ms(r.writeP99))
	if !c.Pass503 {
		fmt.Fprintf(w, "requests a draining replica refused (503), sent on by the proxy to the next: %d\n", r.drained)
	}
	fmt.Fprintf(w, "failed attempts inside the windows (an event and %s after):\n", c.Grace)
	for i, ev := range r.events {
		fmt.Fprintf(w, "  %s: %s\n", strings.SplitN(ev.name, " ", 2)[0], errorsText(r.errorsIn[i]))
	}
	fmt.Fprintf(w, "failed attempts outside them: %s\n", errorsText(r.errorsOut))
	f := r.found
	fmt.Fprintf(w, "writes: %d, acknowledged %d, outcome unknown %d (%d of them written), refused as state lost %d\n",
		r.writes, f.Acked, f.Unknown, f.UnknownPresent, r.refused)
	fmt.Fprintf(w, "state-lost reports: %d; acknowledged writes lost and reported %d\n", r.stateLost, f.LostReported)
	fmt.Fprintf(w, "LOST %d, DUPLICATED %d, out of order %d, foreign %d, refused yet written %d, periodic reads with a problem %d\n",
		f.Lost, f.Duplicated, f.OutOfOrder, f.Foreign, f.RefusedPresent, r.readProblems)
	for _, n := range f.Notes {
		fmt.Fprintf(w, "  %s\n", n)
	}
	for _, n := range f.UnknownNotes {
		fmt.Fprintf(w, "  outcome unknown: %s\n", n)
	}
	for _, o := range r.others {
		fmt.Fprintf(w, "unexpected answer: %.200s\n", o)
	}
	if r.failed() {
		fmt.Fprintln(w, "FAIL")
	} else {
		fmt.Fprintln(w, "ok")
	}
}

// withHeader adds a header to every request.
type withHeader struct {
	key, value string
	next       http.RoundTripper
}

func (h withHeader) RoundTrip(req *http.Request) (*http.Response, error) {
	req = req.Clone(req.Context())
	req.Header.Set(h.key, h.value)
	return h.next.RoundTrip(req)
}
