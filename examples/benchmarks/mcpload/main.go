// Command mcpload measures MCP servers serving the same tool (examples/weather's get_weather)
// under load, side by side in one run: toolgen's runtime/mcp, the go-sdk alone, mark3labs/mcp-go
// and, when node and its packages are installed, the official TypeScript SDK. Each server runs
// in a child process; one Go client (in this process) makes tools/call requests over streamable
// HTTP (stateless and stateful) or stdio, and reports calls a second, latency (p50, p99),
// the server's CPU time a call (from /proc), its allocations a call (Go servers) and what an
// idle stateful session holds after one call.
//
//	go run . -transports stateless,stateful,stdio -clients 1,8,64 -duration 3s -rounds 3
//
// Servers of one configuration run one after the other, in every round, so that load from
// elsewhere on the machine weighs on all of them alike, and each row keeps the best of its
// rounds: the most calls a second (with that round's latencies) and the least CPU time,
// allocations and idle-session memory. Say the machine's load (uptime) beside any figure.
//
// It is a module of its own so that the peers it measures are never a dependency of toolgen.
package main

import (
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
	servers := flag.String("servers", "toolgen,gosdk,mcpgo,ts", "servers to measure (ts: the TypeScript SDK, skipped without node)")
	transports := flag.String("transports", "stateless,stateful,stdio", "transports")
	clients := flag.String("clients", "1,8,64", "concurrent clients over HTTP (stdio has one)")
	argsFlag := flag.String("args", "valid,invalid", "argument documents: the small one, and its wrong-type variant")
	duration := flag.Duration("duration", 3*time.Second, "measured time of each run (after a fifth of it as warm-up)")
	rounds := flag.Int("rounds", 3, "rounds; each row keeps its best")
	idle := flag.Int("idle-sessions", 200, "stateful sessions opened to measure an idle session's memory (0: not measured)")
	flag.Parse()

	// The Go servers are this program (a child runs its own executable): the table says their Go.
	fmt.Printf("Go: %s %s/%s, GOMAXPROCS %d\n\n", runtime.Version(), runtime.GOOS, runtime.GOARCH, runtime.GOMAXPROCS(0))
	fmt.Println("| transport | clients | arguments | server | calls/s | p50 | p99 | server CPU / call | allocs / call | bytes / call | idle session |")
	fmt.Println("|---|---:|---|---|---:|---:|---:|---:|---:|---:|---:|")
	for _, transport := range split(*transports) {
		counts := split(*clients)
		if transport == "stdio" {
			counts = []string{"1"}
		}
		for _, count := range counts {
			n, err := strconv.Atoi(count)
			if err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(2)
			}
			for _, which := range split(*argsFlag) {
				best := map[string]measurement{}
				var order []string
				for range *rounds {
					for _, server := range split(*servers) {
						idleN := 0
						if which == "valid" && n == 8 {
							idleN = *idle
						}
						m, err := run(server, transport, n, which == "invalid", *duration, idleN)
						if err != nil {
							fmt.Fprintf(os.Stderr, "%s %s %d %s: %v\n", server, transport, n, which, err)
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
					fmt.Printf("| %s | %d | %s | %s | %.0f | %s | %s | %s | %s | %s | %s |\n", transport, n, which, server,
						m.callsPerSec(), round(m.P50), round(m.P99), round(m.CPUPerCall),
						count3(m.AllocsPerOp, "%.0f"), count3(m.BytesPerOp/1024, "%.1f KB"), idleText(m))
				}
			}
		}
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
