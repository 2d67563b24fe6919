package redisstore_test

import (
	"bytes"
	"context"
	"net"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// cutAfterExec passes connections through to Redis; once armed, it passes the next EXEC (or
// command, when set) on, then drops Redis's answer and closes the connection: the command was
// run, and the client cannot know it (what a Redis shutting down, or a network cut, does).
type cutAfterExec struct {
	target  string
	command string // "EXEC" when empty
	armed   atomic.Bool
	cuts    atomic.Int32
}

func (c *cutAfterExec) listen(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go c.pass(conn)
		}
	}()
	return ln.Addr().String()
}

func (c *cutAfterExec) pass(client net.Conn) {
	server, err := net.Dial("tcp", c.target)
	if err != nil {
		_ = client.Close()
		return
	}
	command := []byte("\r\nEXEC\r\n")
	if c.command != "" {
		command = []byte("\r\n" + c.command + "\r\n")
	}
	var cut atomic.Bool
	go func() {
		buf := make([]byte, 32<<10)
		for {
			n, err := server.Read(buf)
			if n > 0 && cut.Load() {
				err = net.ErrClosed // the answer to EXEC never arrives
			} else if n > 0 {
				_, _ = client.Write(buf[:n])
			}
			if err != nil {
				_ = client.Close()
				_ = server.Close()
				return
			}
		}
	}()
	buf := make([]byte, 32<<10)
	for {
		n, err := client.Read(buf)
		if n > 0 {
			if bytes.Contains(bytes.ToUpper(buf[:n]), command) && c.armed.CompareAndSwap(true, false) {
				cut.Store(true)
				c.cuts.Add(1)
			}
			_, _ = server.Write(buf[:n])
		}
		if err != nil {
			_ = server.Close()
			return
		}
	}
}

// A keyed call whose state write Redis applied but whose answer was lost is not run again by
// its retry: the first attempt cannot tell the write failed, so its result is not the
// "unavailable, nothing done" that frees the key for a retry.
func TestAWriteWhoseAnswerWasLostIsNotRunAgain(t *testing.T) {
	srv := startRedis(t)
	cutter := &cutAfterExec{target: srv.Addr}
	store := redisstore.New(redis.NewClient(&redis.Options{Addr: cutter.listen(t)}), redisstore.Options{})
	appendTool := jsonTool("append", func(ctx context.Context, args map[string]any) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		var n int
		err := info.State.Update(ctx, "list", func(old any, _ bool) (any, error) {
			list, _ := old.([]any)
			list = append(list, args["item"])
			n = len(list)
			return list, nil
		})
		if err != nil {
			return runtime.ErrorResult(err)
		}
		return runtime.TextResult(strconv.Itoa(n))
	})
	var runs atomic.Int64
	reg := runtime.NewRegistry(runtime.WithSessionStore(store))
	require.NoError(t, reg.Add(fixture.CountRuns(&runs, appendTool)...))
	ctx := context.Background()
	call := runtime.Call{ID: "1", Name: "append", Args: []byte(`{"item":"a"}`), Session: "alice", IdempotencyKey: "k1"}

	cutter.armed.Store(true)
	first := reg.Invoke(ctx, call)
	require.Equal(t, int32(1), cutter.cuts.Load(), "the EXEC's answer was dropped: %s", first.Text)
	require.True(t, first.IsError, first.Text)
	list, _, err := store.Get(ctx, "alice", "list")
	require.NoError(t, err)
	require.Equal(t, []any{"a"}, list, "Redis applied the write once")
	assert.NotEqual(t, runtime.KindUnavailable, first.Kind, "an unavailable failure promises nothing was done: %s", first.Text)

	retry := reg.Invoke(ctx, call)
	assert.True(t, retry.IsError, "the retry does not succeed by appending again: %s", retry.Text)
	assert.True(t, retry.Replayed, "the retry gets the first answer")
	assert.Contains(t, retry.Text, "may or may not have been saved")
	assert.Equal(t, int64(1), runs.Load(), "the retry ran nothing")
	list, _, err = store.Get(ctx, "alice", "list")
	require.NoError(t, err)
	assert.Equal(t, []any{"a"}, list, "the item is in the list once")
}

// go-redis runs a command again when its answer was lost (MaxRetries): a script run twice
// answers as its first run did. A call limit counts the call once, and a loss found by the
// first run is reported, not answered away by the second.
func TestAScriptRunTwiceAnswersAsItsFirstRun(t *testing.T) {
	srv := startRedis(t)
	cutter := &cutAfterExec{target: srv.Addr, command: "EVALSHA"}
	store := redisstore.New(redis.NewClient(&redis.Options{Addr: cutter.listen(t)}), redisstore.Options{})
	ctx := context.Background()
	counters := []runtime.Counter{{Key: "calls", Limit: 2}}
	_, err := store.Acquire(ctx, "warm", counters) // the first run loads the script: EVAL, not EVALSHA
	require.NoError(t, err)

	cutter.armed.Store(true)
	refused, err := store.Acquire(ctx, "alice", counters)
	require.NoError(t, err, "go-redis ran it again and got an answer")
	require.Equal(t, int32(1), cutter.cuts.Load())
	assert.Equal(t, -1, refused)
	refused, err = store.Acquire(ctx, "alice", counters)
	require.NoError(t, err)
	assert.Equal(t, -1, refused, "the second call is within the limit of 2: the first counted once")
	refused, err = store.Acquire(ctx, "alice", counters)
	require.NoError(t, err)
	assert.Equal(t, 0, refused, "the third is refused")

	require.NoError(t, store.Set(ctx, "bob", "k", "v"))
	_, _, err = store.Get(ctx, "bob", "k") // loads the script
	require.NoError(t, err)
	require.NoError(t, srv.client(t).FlushAll(ctx).Err()) // Redis lost bob's state
	cutter.armed.Store(true)
	_, _, err = store.Get(ctx, "bob", "k")
	require.Equal(t, int32(2), cutter.cuts.Load())
	assert.ErrorIs(t, err, runtime.ErrSessionStateLost, "the loss the first run found is reported")
}

// An approval's transition that go-redis runs again after its answer was lost still says it
// moved: the consuming replica runs the approved call, rather than take the second run's
// "not pending any more" for another replica's claim, which would leave the call run by none.
func TestATransitionRunTwiceStillMoved(t *testing.T) {
	srv := startRedis(t)
	cutter := &cutAfterExec{target: srv.Addr, command: "EVALSHA"}
	approvals := redisstore.New(redis.NewClient(&redis.Options{Addr: cutter.listen(t)}), redisstore.Options{}).Approvals()
	ctx := context.Background()
	now := time.Now()
	add := func(id string) {
		_, err := approvals.Add(ctx, runtime.ApprovalRecord{
			Request: runtime.ApprovalRequest{ID: id, Session: "alice", Tool: "deploy", RawArgs: []byte(`{}`)},
			Created: now, Expires: now.Add(time.Hour), Forget: now.Add(2 * time.Hour),
		}, runtime.ApprovalLimits{}, now)
		require.NoError(t, err)
	}
	add("warm")
	add("a1")
	_, moved, err := approvals.Transition(ctx, "warm", runtime.ApprovalPending, runtime.ApprovalApproved,
		runtime.Decision{By: "bob"}, now.Add(time.Hour), now.Add(2*time.Hour)) // loads the script
	require.NoError(t, err)
	require.True(t, moved)

	_, moved, err = approvals.Transition(ctx, "a1", runtime.ApprovalPending, runtime.ApprovalApproved,
		runtime.Decision{By: "bob"}, now.Add(time.Hour), now.Add(2*time.Hour))
	require.NoError(t, err)
	require.True(t, moved)
	cutter.armed.Store(true)
	rec, moved, err := approvals.Transition(ctx, "a1", runtime.ApprovalApproved, runtime.ApprovalConsumed, runtime.Decision{}, time.Time{}, time.Time{})
	require.NoError(t, err)
	require.Equal(t, int32(1), cutter.cuts.Load())
	assert.Equal(t, runtime.ApprovalConsumed, rec.State)
	assert.True(t, moved, "this replica consumed it, and runs the call")
	_, moved, err = approvals.Transition(ctx, "a1", runtime.ApprovalApproved, runtime.ApprovalConsumed, runtime.Decision{}, time.Time{}, time.Time{})
	require.NoError(t, err)
	assert.False(t, moved, "another claim does not move it")
}

// A task's creation that go-redis runs again after its answer was lost is not refused as an
// id that exists: the task the first run created is the one asked for.
func TestATaskCreationRunTwiceIsNoError(t *testing.T) {
	srv := startRedis(t)
	cutter := &cutAfterExec{target: srv.Addr, command: "EVALSHA"}
	tasks := redisstore.New(redis.NewClient(&redis.Options{Addr: cutter.listen(t)}), redisstore.Options{}).Tasks()
	ctx := context.Background()
	now := time.Now()
	task := func(id, owner string) toolmcp.Task {
		return toolmcp.Task{ID: id, Owner: owner, Status: toolmcp.TaskWorking, Created: now, Updated: now, Beat: now, Expires: now.Add(time.Hour)}
	}
	require.NoError(t, tasks.Create(ctx, task("warm", "alice"), 0, 0)) // loads the script
	cutter.armed.Store(true)
	require.NoError(t, tasks.Create(ctx, task("t1", "alice"), 0, 0))
	require.Equal(t, int32(1), cutter.cuts.Load())
	got, err := tasks.Get(ctx, "alice", "t1")
	require.NoError(t, err)
	assert.Equal(t, "t1", got.ID)
	assert.Error(t, tasks.Create(ctx, task("t1", "bob"), 0, 0), "another task under the id is refused")
}
