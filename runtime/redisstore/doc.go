// Package redisstore keeps toolgen's shared state in Redis, so that replicas of a server
// (stateless MCP behind a load balancer, say) serve any session: a call may land on any
// replica, and a replica that dies takes nothing with it.
//
//	rdb := redis.NewClient(&redis.Options{Addr: "localhost:6379"})
//	store := redisstore.New(rdb, redisstore.Options{})
//	reg := runtime.NewRegistry(runtime.WithSessionStore(store), runtime.WithResultStore(store),
//		runtime.WithLoopGuard(guard))
//
// Store is a runtime.SessionStore: a session's state is one Redis hash, its values JSON (Get
// returns them as encoding/json decodes into an any), its Update an optimistic transaction.
// It is also a runtime.SharedCounters, so the loop guards (call limits, repeated calls) and
// AskRetry budgets count in Redis, atomically across replicas, in a Lua script. A session
// expires SessionTTL (an hour by default) after its last use, read or write: over stateless
// MCP with shared sessions, that idle time is a session's lifetime; Registry.EndSession
// deletes it at once. A session
// whose state Redis lost (a restart without persistence, an eviction, a failover) is told
// apart from a new one and reported once as runtime.SessionStateLost (see lost.go).
//
// Store is also a runtime.IdempotencyStore: the records of calls made with an idempotency key
// (runtime.Call.IdempotencyKey), so that a call retried on another replica runs once (see
// calls.go).
//
// Store is also a runtime.ResultStore (runtime.WithResultStore): a result cut to its size cap
// is kept ResultMaxAge under an opaque id scoped to its session, readable in pages from any
// replica, by the model's read_result tool or an MCP resources/read.
//
// Store.Approvals is the approval queue's runtime.ApprovalStore (runtime.WithApprovalStore,
// with a runtime.WithApprovalKey every replica shares): a request made through one replica is
// listed and decided through any other, and its call runs once, since Add and Transition are
// an insert-if-absent and a compare-and-set in Lua scripts, under the runtime's limits.
//
// Store.Tasks is runtime/mcp's TaskStore (toolmcp.WithTaskStore(store.Tasks())): the MCP
// tasks of every replica, so that tasks/get, tasks/update and tasks/cancel reach a task
// through any of them, bounded per owner and in all in a Lua script.
//
// Keys start with Options.Prefix and hold a hash of the session id, never the id itself, in
// braces, so that a Redis Cluster keeps a session's keys in one slot.
//
// The package is its own Go module, so programs that do not import it never download the
// Redis client. Its tests start a redis-server (Debian's package) on a free loopback port.
package redisstore
