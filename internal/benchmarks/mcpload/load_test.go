package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The test binary is also the servers' child process, as the command is.
func TestMain(m *testing.M) {
	if spec := os.Getenv("MCPLOAD_SERVE"); spec != "" {
		name, transport, _ := strings.Cut(spec, ",")
		if err := serve(name, transport); err != nil {
			os.Stderr.WriteString(err.Error() + "\n")
			os.Exit(1)
		}
		return
	}
	os.Exit(m.Run())
}

// servers are those measured here: the TypeScript SDK's only where node and its packages are.
func servers(t testing.TB) []string {
	out := []string{"toolgen", "gosdk", "mcpgo", "floor"}
	if _, err := exec.LookPath("node"); err == nil {
		if _, err := os.Stat(filepath.Join(nodeModules, "@modelcontextprotocol", "sdk")); err == nil {
			return append(out, "ts")
		}
	}
	t.Logf("no node or no npm ci in %s: the TypeScript SDK is not measured", filepath.Dir(nodeModules))
	return out
}

// refuses says which servers do not speak 2026-07-28 on a transport, so that a go-sdk client
// falls back to 2025-11-25 there: the TypeScript SDK (1.32.2) anywhere, and the go-sdk, and
// toolgen on it, over stateful HTTP.
func refuses(server, transport, protocol string) bool {
	return protocol == protocol20260728 && (server == "ts" || transport == "stateful" && (server == "toolgen" || server == "gosdk"))
}

// Every server answers every transport's calls on every protocol as the load client expects
// (the weather for valid arguments, a tool error for invalid ones), and the measurements are
// filled in; or it refuses 2026-07-28 where it is known to. A short run: CI's smoke test of the
// load command, not a measurement.
func TestServersAnswer(t *testing.T) {
	for _, server := range servers(t) {
		for _, transport := range []string{"stateless", "stateful", "stdio"} {
			for _, protocol := range []string{protocol20251125, protocol20260728} {
				t.Run(server+"/"+transport+"/"+protocol, func(t *testing.T) {
					for _, invalid := range []bool{false, true} {
						m, err := run(server, transport, protocol, 2, invalid, 100*time.Millisecond, 3)
						if refuses(server, transport, protocol) {
							var r refusedError
							require.ErrorAs(t, err, &r)
							return
						}
						require.NoError(t, err)
						assert.Positive(t, m.Calls)
						assert.LessOrEqual(t, m.P50, m.P99)
						if server == "ts" {
							assert.Negative(t, m.AllocsPerOp, "no allocation counts from node")
						} else {
							assert.Positive(t, m.AllocsPerOp)
						}
						if transport == "stateful" && protocol == protocol20251125 {
							assert.Equal(t, 3, m.IdleSessions)
						} else {
							assert.Zero(t, m.IdleSessions, "no sessions to hold")
						}
					}
				})
			}
		}
	}
}

// BenchmarkServe is the load command's measurement as a benchmark: b.N calls from 8 clients
// (one over stdio) of each server, with the server's CPU time, allocations and bytes a call
// (measured in the child process) as metrics. Run it on a quiet machine, with -count for the
// best of several:
//
//	go test -run '^$' -bench Serve -count 3
func BenchmarkServe(b *testing.B) {
	for _, transport := range []string{"stateless", "stateful", "stdio"} {
		for _, protocol := range []string{protocol20251125, protocol20260728} {
			for _, server := range servers(b) {
				if refuses(server, transport, protocol) {
					continue
				}
				b.Run(transport+"/"+protocol+"/"+server, func(b *testing.B) {
					clients := 8
					if transport == "stdio" {
						clients = 1
					}
					c, err := start(server, transport)
					require.NoError(b, err)
					defer c.stop()
					cs, err := callers(c, transport, protocol, clients)
					require.NoError(b, err)
					before, err := c.memory(false)
					require.NoError(b, err)
					cpu0, err := c.cpu()
					require.NoError(b, err)
					b.ResetTimer()
					n := int64(b.N)
					_, err = drive(cs, validArgs, false, func(done int64) bool { return done >= n })
					require.NoError(b, err)
					b.StopTimer()
					cpu1, _ := c.cpu()
					after, err := c.memory(false)
					require.NoError(b, err)
					b.ReportMetric(float64(cpu1-cpu0)/float64(b.N)/1e3, "server-µs/call")
					if server != "ts" {
						b.ReportMetric(float64(after.Mallocs-before.Mallocs)/float64(b.N), "server-allocs/call")
						b.ReportMetric(float64(after.TotalAlloc-before.TotalAlloc)/float64(b.N), "server-B/call")
					}
				})
			}
		}
	}
}
