package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/fixture"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/runtime/redisstore"
)

// replicaEnv, when set, makes the program a replica (see serveReplica): the parent re-executes
// itself with it, so that a SIGKILL kills a real process. Its value is
// "LISTEN REDIS LEASE MAXCALLS" separated by spaces.
const replicaEnv = "REPLICALOAD_REPLICA"

// conversationHeader names the session of a request: a stateless request has no MCP session,
// so the client says which conversation it belongs to, and every replica finds that
// session's state in Redis.
const conversationHeader = "X-Conversation"

// listKey is the session state's key holding the list append writes to.
const listKey = "list"

// appendTool appends its item to the session's list and answers the list's new length. It is
// not idempotent (running it twice appends twice): only the idempotency key makes a retry
// safe.
var appendTool = fixture.JSONTool("append", func(ctx context.Context, args map[string]any) runtime.Result {
	item, _ := args["item"].(string)
	if item == "" {
		return runtime.ErrorResult(runtime.ModelErrorf(runtime.KindInvalidInput, "append needs an item"))
	}
	info, _ := runtime.CallInfoFrom(ctx)
	var n int
	err := info.State.Update(ctx, listKey, func(old any, _ bool) (any, error) {
		list, _ := old.([]any)
		list = append(list, item)
		n = len(list)
		return list, nil
	})
	if err != nil {
		return runtime.ErrorResult(err)
	}
	return runtime.TextResult(strconv.Itoa(n))
})

// readTool returns the session's list as a JSON array. It is read-only, so idempotency keys
// do not apply to it: a retry simply reads again.
var readTool = func() runtime.Tool {
	t := fixture.JSONTool("read", func(ctx context.Context, _ map[string]any) runtime.Result {
		info, _ := runtime.CallInfoFrom(ctx)
		list, _, err := info.State.Get(ctx, listKey)
		if err != nil {
			return runtime.ErrorResult(err)
		}
		if list == nil {
			list = []any{}
		}
		data, _ := json.Marshal(list)
		return runtime.TextResult(string(data))
	})
	t.Hints.ReadOnly = true
	t.MaxResult = 64 << 20 // the whole list, not a preview cut at runtime.DefaultMaxResult (16 KiB)
	return t
}()

// serveReplica is a replica: stateless MCP over HTTP on listen, the session state and the
// records of keyed calls in Redis at redisAddr. It prints "replicaload-ready" on stdout once
// it listens. On SIGTERM it drains (refusing new requests with 503, finishing those in
// progress) and exits.
func serveReplica(spec string) error {
	f := strings.Fields(spec)
	if len(f) != 4 {
		return fmt.Errorf("%s=%q: want LISTEN REDIS LEASE MAXCALLS", replicaEnv, spec)
	}
	listen, redisAddr := f[0], f[1]
	lease, err := time.ParseDuration(f[2])
	if err != nil {
		return err
	}
	maxCalls, err := strconv.Atoi(f[3])
	if err != nil {
		return err
	}
	rdb := redis.NewClient(&redis.Options{Addr: redisAddr})
	defer rdb.Close()
	store := redisstore.New(rdb, redisstore.Options{MaxCallsPerSession: maxCalls})
	reg := runtime.NewRegistry(runtime.WithSessionStore(store), runtime.WithIdempotency(runtime.Idempotency{Lease: lease}))
	if err := reg.Add(appendTool, readTool); err != nil {
		return err
	}
	drain := &toolmcp.Drain{}
	handler := toolmcp.HTTPHandler(reg, toolmcp.WithStateless(), toolmcp.WithSharedSessions(),
		toolmcp.WithSessionKey(toolmcp.SessionFromHeader(conversationHeader)), toolmcp.WithDrain(drain))
	ln, err := net.Listen("tcp", listen)
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	done := make(chan error, 1)
	go func() {
		sig := make(chan os.Signal, 1)
		signal.Notify(sig, syscall.SIGTERM)
		<-sig
		ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
		defer cancel()
		_ = drain.Wait(ctx)
		done <- srv.Shutdown(ctx)
	}()
	fmt.Println("replicaload-ready")
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return <-done
}
