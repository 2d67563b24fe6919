package main

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMain makes the test binary a replica when the run re-executes it (see replicaProc).
func TestMain(m *testing.M) {
	if spec := os.Getenv(replicaEnv); spec != "" {
		if err := serveReplica(spec); err != nil {
			fmt.Fprintln(os.Stderr, "replica:", err)
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// needRedis skips the test without redis-server, unless TOOLGEN_REQUIRE_REDIS is set (CI
// sets it), where it fails, as the redisstore tests do.
func needRedis(t *testing.T) {
	t.Helper()
	if _, err := exec.LookPath("redis-server"); err != nil {
		if os.Getenv("TOOLGEN_REQUIRE_REDIS") != "" {
			t.Fatal("redis-server is not installed (apt-get install redis-server)")
		}
		t.Skip("redis-server is not installed (apt-get install redis-server)")
	}
}

func short() config {
	cfg := defaults()
	// Redis restarted three times: a write whose EXEC the shutdown cuts is then likely.
	cfg.Sessions, cfg.Duration, cfg.Down, cfg.RedisRestarts = 8, 4*time.Second, 300*time.Millisecond, 3
	cfg.LoseAnswers, cfg.ReadEvery = 0.02, 25
	return cfg
}

func runAndPrint(t *testing.T, cfg config) *report {
	t.Helper()
	rep, err := run(cfg)
	require.NoError(t, err)
	var out strings.Builder
	rep.print(&out)
	t.Log("\n" + out.String())
	return rep
}

// A short run of the whole: a replica killed and restarted, Redis restarted with its
// append-only file, a drained rolling restart, answers lost by the proxy. Every acknowledged
// write is in its session's list exactly once, in its place.
func TestAShortRunLosesAndDuplicatesNothing(t *testing.T) {
	needRedis(t)
	rep := runAndPrint(t, short())
	require.Len(t, rep.events, 3, "the kill, the Redis restart and the rolling restart happened")
	assert.Positive(t, rep.found.Acked)
	assert.Positive(t, rep.answersLost, "the proxy lost answers, so retries happened")
	assert.Zero(t, rep.found.Lost, "acknowledged writes lost")
	assert.Zero(t, rep.found.Duplicated, "writes duplicated")
	assert.Zero(t, rep.found.OutOfOrder)
	assert.Zero(t, rep.found.Foreign)
	assert.Zero(t, rep.stateLost, "Redis kept everything: no session may be reported lost")
	assert.Zero(t, rep.readProblems)
	assert.False(t, rep.failed())
}

// Without persistence a Redis restart loses every session: each is told so
// (runtime.SessionStateLost), and no acknowledged write is gone without that report.
func TestLossWithoutPersistenceIsReported(t *testing.T) {
	needRedis(t)
	cfg := short()
	cfg.Persist, cfg.Kill, cfg.Roll, cfg.LoseAnswers, cfg.Duration = false, false, false, 0, 2*time.Second
	rep := runAndPrint(t, cfg)
	require.Len(t, rep.events, 1)
	assert.Positive(t, rep.found.LostReported, "the restart lost acknowledged writes")
	assert.Positive(t, rep.stateLost)
	assert.Zero(t, rep.found.Lost, "acknowledged writes lost silently")
	assert.Zero(t, rep.found.Duplicated)
	assert.False(t, rep.failed())
}

// The check can fail: a client that retries under a new idempotency key makes each retry of a
// call whose answer was lost a second call, and the run finds the duplicates.
func TestRetriesUnderNewKeysShowDuplicates(t *testing.T) {
	needRedis(t)
	cfg := short()
	cfg.Kill, cfg.RestartRedis, cfg.Roll, cfg.Duration = false, false, false, 1500*time.Millisecond
	cfg.LoseAnswers, cfg.RetryNewKey = 0.05, true
	rep := runAndPrint(t, cfg)
	require.Positive(t, rep.answersLost)
	assert.Positive(t, rep.found.Duplicated)
	assert.True(t, rep.failed())
}
