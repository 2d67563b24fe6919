// Command mcpload measures MCP servers serving the same tool (examples/weather's get_weather)
// under load, side by side in one run: toolgen's runtime/mcp, the go-sdk alone, mark3labs/mcp-go,
// when node and its packages are installed the official TypeScript SDK, and a floor (floor.go:
// a plain net/http handler, and over stdio a read-a-line, write-a-line loop, answering with
// canned bytes). Each server runs in a child process; one Go client (in this process) makes
// tools/call requests over streamable HTTP (stateless and stateful) or stdio, and reports calls
// a second, latency (p50, p99), the server's CPU time a call (from /proc), its allocations a
// call (Go servers) and what an idle stateful session holds after one call.
//
//	go run . -transports stateless,stateful,stdio -protocols 2025-11-25,2026-07-28 -clients 1,8,64 -duration 3s -rounds 3
//
// On each protocol the client sends, byte for byte and header for header, what a go-sdk v1.8.0
// client sends (capture_test.go holds it to that): on 2025-11-25 initialize and
// notifications/initialized, then the calls; on 2026-07-28, the go-sdk client's default over
// stdio and stateless HTTP, one server/discover and then calls carrying the client's
// capabilities, name and protocol in params._meta, with the Mcp-Method and Mcp-Name headers.
// A server whose server/discover does not list 2026-07-28 (the TypeScript SDK; the go-sdk, and
// toolgen on it, over stateful HTTP) gets no row on it: a go-sdk client falls back to
// 2025-11-25 there, the other row. On 2026-07-28 no request carries a session, so a stateful
// server there answers what a stateless one does, and no idle session is measured.
//
// Servers of one configuration run one after the other, in every round, so that load from
// elsewhere on the machine weighs on all of them alike, and each row keeps the best of its
// rounds: the most calls a second (with that round's latencies) and the least CPU time,
// allocations and idle-session memory. Say the machine's load (uptime) beside any figure.
//
// It is a module of its own so that the peers it measures are never a dependency of toolgen.
package main

import (
	"errors"
	"flag"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

func main() {
	if spec := os.Getenv("MCPLOAD_SERVE"); spec != "" {
		name, transport, _ := strings.Cut(spec, ",")
		if err := serve(name, transport); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		return
	}
	servers := flag.String("servers", "toolgen,gosdk,mcpgo,ts,floor", "servers to measure (ts: the TypeScript SDK, skipped without node; floor: canned answers)")
	transports := flag.String("transports", "stateless,stateful,stdio", "transports")
	protocols := flag.String("protocols", protocol20251125+","+protocol20260728, "protocol revisions the client speaks, as a go-sdk v1.8.0 client does")
	clients := flag.String("clients", "1,8,64", "concurrent clients over HTTP (stdio has one)")
	argsFlag := flag.String("args", "valid,invalid", "argument documents: the small one, and its wrong-type variant")
	duration := flag.Duration("duration", 3*time.Second, "measured time of each run (after a fifth of it as warm-up)")
	rounds := flag.Int("rounds", 3, "rounds; each row keeps its best")
	idle := flag.Int("idle-sessions", 200, "stateful sessions opened to measure an idle session's memory (0: not measured)")
	flag.Parse()

	// The Go servers are this program (a child runs its own executable): the table says their Go.
	fmt.Printf("Go: %s %s/%s, GOMAXPROCS %d\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	fmt.Println("| transport | protocol | clients | arguments | server | calls/s | p50 | p99 | server CPU / call | allocs / call | bytes / call | idle session |")
	fmt.Println("|---|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, transport := range split(*transports) {
		counts := split(*clients)
		if transport == "stdio" {
			counts = []string{"1"}
		}
		for _, protocol := range split(*protocols) {
			if protocol != protocol20251125 && protocol != protocol20260728 {
				fmt.Fprintf(os.Stderr, "protocol %q: the client speaks %s and %s\n", protocol, protocol20251125, protocol20260728)
				os.Exit(2)
			}
			for _, count := range counts {
				n, err := strconv.Atoi(count)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(2)
				}
				for _, which := range split(*argsFlag) {
					measureRow(split(*servers), transport, protocol, n, which, *rounds, *duration, *idle)
				}
			}
		}
	}
}

// measureRow measures each server in one configuration, one after the other in each round, and
// prints a row for each with the best of its rounds. A server that does not speak the protocol
// gets no row (it is said once on stderr).
func measureRow(servers []string, transport, protocol string, n int, which string, rounds int, d time.Duration, idle int) {
	best := map[string]measurement{}
	refused := map[string]bool{}
	var order []string
	for range rounds {
		for _, server := range servers {
			if refused[server] {
				continue
			}
			idleN := 0
			if which == "valid" && n == 8 {
				idleN = idle
			}
			m, err := run(server, transport, protocol, n, which == "invalid", d, idleN)
			if err != nil {
				var r refusedError
				if refused[server] = errors.As(err, &r); refused[server] {
					fmt.Fprintf(os.Stderr, "%s %s %s: %v; no row\n", server, transport, protocol, err)
				} else {
					fmt.Fprintf(os.Stderr, "%s %s %s %d %s: %v\n", server, transport, protocol, n, which, err)
				}
				continue
			}
			if _, seen := best[server]; !seen {
				order = append(order, server)
			}
			best[server] = bestOf(best[server], m)
		}
	}
	for _, server := range order {
		m := best[server]
		fmt.Printf("| %s | %s | %d | %s | %s | %.0f | %s | %s | %s | %s | %s | %s |\n", transport, protocol, n, which, server,
			m.callsPerSec(), round(m.P50), round(m.P99), round(m.CPUPerCall),
			count3(m.AllocsPerOp, "%.0f"), count3(m.BytesPerOp/1024, "%.1f KB"), idleText(m))
	}
}

func split(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

func round(d time.Duration) string { return d.Round(time.Microsecond).String() }

func count3(v float64, format string) string {
	if v < 0 {
		return "—"
	}
	return fmt.Sprintf(format, v)
}

func idleText(m measurement) string {
	if m.IdleSessions == 0 {
		return ""
	}
	return fmt.Sprintf("%.1f KB", m.IdleSession/1024)
}

// bestOf keeps the best of two runs of one server, figure by figure.
func bestOf(b, m measurement) measurement {
	if b.Calls == 0 {
		return m
	}
	out := b
	if m.callsPerSec() > b.callsPerSec() {
		out = m
	}
	out.CPUPerCall = min(b.CPUPerCall, m.CPUPerCall)
	if b.AllocsPerOp >= 0 {
		out.AllocsPerOp, out.BytesPerOp = min(b.AllocsPerOp, m.AllocsPerOp), min(b.BytesPerOp, m.BytesPerOp)
	}
	if b.IdleSessions > 0 && m.IdleSessions > 0 {
		out.IdleSession, out.IdleSessions = min(b.IdleSession, m.IdleSession), b.IdleSessions
	}
	return out
}
