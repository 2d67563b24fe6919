// Command replicaload runs toolgen's scaling-out setup under load and under failures, and checks
// that no acknowledged write is lost or duplicated. It starts a redis-server on a free loopback
// port (append-only file, appendfsync always, unless -persist=false), three replicas as child
// processes (this program, re-executed), each serving two tools over stateless MCP HTTP with
// shared sessions in Redis (toolmcp.HTTPHandler with WithStateless, WithSharedSessions,
// WithSessionKey(SessionFromHeader("X-Conversation")), WithDrain), and a round-robin reverse
// proxy in front of them, which sends a request a replica refused (connection refused, or a
// draining replica's 503) to the next one, as a balancer does (-pass-503 passes the 503 on). The tools: append(item) appends to the session's list in the session
// store and answers its new length (it is not idempotent); read() answers the list.
//
//	go run ./internal/replicaload -sessions 16 -duration 20s
//
// Each session is a go-sdk client making writes one after another: a fresh idempotency key
// (params._meta "io.toolgen/idempotency-key") per write, sent again under the same key after a
// failure (connection refused or reset, the proxy's 502, a draining replica's 503, an error
// result saying to try again). It reads its list back every -read-every writes and at the end:
// every acknowledged write must be in it exactly once, at the place its answered length says;
// a write whose outcome the server called unknown (its replica died mid-call) at most once.
//
// Meanwhile, at a fifth of the run one replica is killed (SIGKILL) and started again -down
// later; at 45% Redis is restarted (SIGTERM, then started again on its port: with the
// append-only file nothing acknowledged may be lost; without persistence everything is, and
// every session must be told so, runtime.SessionStateLost, never lose it silently); at 70%
// every replica is restarted in turn, drained (SIGTERM: toolmcp.Drain). The report gives calls
// a second, latency, failed attempts inside and outside those windows, the writes lost,
// duplicated or reported lost, and the load average at the start and the end (the machine may
// be shared). The exit status is 1 when an acknowledged write was lost without a report, or
// duplicated, or any other inconsistency was seen.
//
// TestAShortRunLosesAndDuplicatesNothing runs a short version in CI.
package main

import (
	"flag"
	"fmt"
	"os"
	"time"
)

func main() {
	if spec := os.Getenv(replicaEnv); spec != "" {
		if err := serveReplica(spec); err != nil {
			fmt.Fprintln(os.Stderr, "replica:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	cfg := defaults()
	flag.IntVar(&cfg.Sessions, "sessions", cfg.Sessions, "concurrent client sessions (conversations)")
	flag.DurationVar(&cfg.Duration, "duration", cfg.Duration, "how long the sessions write")
	flag.BoolVar(&cfg.Persist, "persist", cfg.Persist, "run Redis with the append-only file fsynced on every write (false: no persistence, a restart loses everything, which must be reported)")
	flag.BoolVar(&cfg.Kill, "kill", cfg.Kill, "SIGKILL a replica at a fifth of the run and start it again")
	flag.DurationVar(&cfg.Down, "down", cfg.Down, "how long the killed replica stays down")
	flag.BoolVar(&cfg.RestartRedis, "restart-redis", cfg.RestartRedis, "restart Redis at 45% of the run")
	flag.IntVar(&cfg.RedisRestarts, "redis-restarts", cfg.RedisRestarts, "how many times Redis is restarted then, 200 ms apart")
	flag.BoolVar(&cfg.Roll, "roll", cfg.Roll, "restart every replica in turn, drained (SIGTERM), at 70% of the run")
	flag.Float64Var(&cfg.LoseAnswers, "lose-answers", cfg.LoseAnswers, "fraction of append answers the proxy throws away after the replica ran the call")
	flag.BoolVar(&cfg.Pass503, "pass-503", cfg.Pass503, "the proxy passes a draining replica's 503 on to the client (which retries) instead of sending the request to the next replica")
	flag.BoolVar(&cfg.RetryNewKey, "retry-new-key", cfg.RetryNewKey, "break the client on purpose: send each retry under a new idempotency key (the check must then find duplicates)")
	flag.DurationVar(&cfg.Lease, "lease", cfg.Lease, "runtime.Idempotency.Lease of the replicas: how soon a dead replica's call is known stopped")
	flag.IntVar(&cfg.MaxCalls, "max-calls-per-session", cfg.MaxCalls, "redisstore.Options.MaxCallsPerSession of the replicas (the default 1000 would refuse a session's writes past 1000 in the 10-minute window)")
	flag.IntVar(&cfg.ReadEvery, "read-every", cfg.ReadEvery, "each session reads its list back every this many writes (0: only at the end)")
	flag.DurationVar(&cfg.Grace, "grace", cfg.Grace, "how long after an event's end its window lasts, for counting failures inside and outside")
	logs := flag.Bool("logs", false, "pass the replicas' stderr through")
	flag.Parse()
	if *logs {
		cfg.Logs = os.Stderr
	}
	rep, err := run(cfg)
	if err != nil {
		fmt.Fprintln(os.Stderr, "replicaload:", err)
		os.Exit(2)
	}
	rep.print(os.Stdout)
	if rep.failed() {
		os.Exit(1)
	}
}

func defaults() config {
	return config{
		Sessions:      16,
		Duration:      20 * time.Second,
		Persist:       true,
		Kill:          true,
		Down:          500 * time.Millisecond,
		RestartRedis:  true,
		RedisRestarts: 1,
		Roll:          true,
		Lease:         5 * time.Second,
		MaxCalls:      1 << 20,
		ReadEvery:     50,
		Grace:         time.Second,
	}
}
