package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolgen-go/toolgen/runtime"
)

// DefaultSessionTTL is how long a session's state lives after its last use (a read, a write,
// a loop guard's count), unless Options.SessionTTL says otherwise: a session idle that long
// ends.
const DefaultSessionTTL = time.Hour

// DefaultPrefix starts every key the store writes, unless Options.Prefix says otherwise.
const DefaultPrefix = "toolgen:"

// maxUpdateTries bounds the optimistic transaction of Update under contention.
const maxUpdateTries = 64

// Options configures a Store. The zero value is the defaults.
type Options struct {
	// Prefix starts every key (DefaultPrefix when empty): give each application sharing a
	// Redis its own.
	Prefix string
	// SessionTTL is how long a session (its state and its loop-guard counters) lives after
	// its last use, read or write (DefaultSessionTTL, an hour, when zero): the idle time after
	// which a session nobody ends with Registry.EndSession ends. Over stateless MCP with
	// shared sessions, this is the sessions' lifetime.
	SessionTTL time.Duration
	// ResultMaxAge is how long a stored result stays readable (runtime.DefaultResultMaxAge
	// when zero).
	ResultMaxAge time.Duration
	// ResultMaxBytes refuses results larger than this (runtime.DefaultResultMaxBytes when
	// zero). Redis's maxmemory bounds them all.
	ResultMaxBytes int64
	// MaxTrackedSessions bounds how many sessions the Store remembers to tell a session whose
	// state Redis lost from a new one (DefaultMaxTrackedSessions when zero; see lost.go).
	MaxTrackedSessions int
	// MaxCallsPerSession bounds the records of calls made with an idempotency key one
	// session keeps at once (DefaultMaxCallsPerSession when zero; see calls.go).
	MaxCallsPerSession int
}

// Store keeps toolgen's shared state in Redis: it is a runtime.SessionStore,
// runtime.SharedCounters (the loop guards count in Redis) and a runtime.ResultStore;
// Approvals is its runtime.ApprovalStore. It is
// safe for concurrent use by any number of registries and processes.
type Store struct {
	client         redis.UniversalClient
	prefix         string
	ttl            time.Duration
	resultMaxAge   time.Duration
	resultMaxBytes int64
	seen           *tracker
	maxCalls       int
}

// New returns a Store on client (a *redis.Client, *redis.ClusterClient or a failover client).
func New(client redis.UniversalClient, opts Options) *Store {
	s := &Store{client: client, prefix: opts.Prefix, ttl: opts.SessionTTL, resultMaxAge: opts.ResultMaxAge, resultMaxBytes: opts.ResultMaxBytes}
	if s.prefix == "" {
		s.prefix = DefaultPrefix
	}
	if s.ttl <= 0 {
		s.ttl = DefaultSessionTTL
	}
	if s.resultMaxAge <= 0 {
		s.resultMaxAge = runtime.DefaultResultMaxAge
	}
	if s.resultMaxBytes <= 0 {
		s.resultMaxBytes = runtime.DefaultResultMaxBytes
	}
	maxTracked := opts.MaxTrackedSessions
	if maxTracked <= 0 {
		maxTracked = DefaultMaxTrackedSessions
	}
	s.seen = newTracker(maxTracked)
	s.maxCalls = opts.MaxCallsPerSession
	if s.maxCalls <= 0 {
		s.maxCalls = DefaultMaxCallsPerSession
	}
	return s
}

var (
	_ runtime.SessionStore   = (*Store)(nil)
	_ runtime.SharedCounters = (*Store)(nil)
)

// sessionTag is the part of every key of session: a hash, so that any session id (an MCP
// session id, a user's conversation id) makes a short key of safe characters, in braces so
// that a Redis Cluster keeps all of a session's keys in one slot.
func (s *Store) sessionTag(session string) string {
	return s.prefix + "{" + s.sessionHash(session) + "}"
}

// sessionHash names session in keys.
func (s *Store) sessionHash(session string) string {
	sum := sha256.Sum256([]byte(session))
	return base64.RawURLEncoding.EncodeToString(sum[:18])
}

// stateKey is the hash holding a session's state ("v:" fields, JSON) and its loop-guard
// counters ("c:" fields, integers): one key, so that Clear forgets both.
func (s *Store) stateKey(session string) string { return s.sessionTag(session) + ":state" }

// clearedKey is the tombstone Clear leaves for SessionTTL, so that a replica that remembers the
// session takes its missing state for an ended session, not a lost one.
func (s *Store) clearedKey(session string) string { return s.sessionTag(session) + ":cleared" }

const (
	valueField   = "v:"
	counterField = "c:"
)

// openState begins every script that reads or writes a session's state (KEYS[1] its hash,
// KEYS[2] its tombstone, KEYS[3] the run's own key: see once; ARGV[1] the generation the caller expects, or ”, ARGV[2] a new
// one, ARGV[3] the TTL in ms). It returns the hash's generation, or, when the hash is gone
// though the caller expected it and no Clear explains it, starts a new generation and
// returns {'lost', generation} for the script to return as it is.
const openState = `
local g = redis.call('HGET', KEYS[1], 'g')
if not g then
  if redis.call('EXISTS', KEYS[1]) == 1 then
    g = ARGV[2]
    redis.call('HSET', KEYS[1], 'g', g)
  elseif ARGV[1] ~= '' and redis.call('EXISTS', KEYS[2]) == 0 then
    redis.call('HSET', KEYS[1], 'g', ARGV[2])
    redis.call('PEXPIRE', KEYS[1], ARGV[3])
    return {'lost', ARGV[2]}
  end
end
`

// A script's answer can be lost after Redis ran it (Redis shutting down, a broken
// connection), and go-redis then runs the same command again on a new connection (its
// MaxRetries, 3 by default). Run twice, acquire would count a call twice, and a script that
// found the state lost would report it the first time only, to no one: the second run finds
// the new generation and answers as if nothing had happened. So each run carries a key of its
// own (KEYS[3], in the session's slot), under which the script keeps its answer for a few
// seconds when running it again would answer otherwise, and which a second run answers from.
// once wraps a script's body: always keeps every answer (acquire), else only a loss's.
func once(body string, always bool) string {
	keep := `if r[1] == 'lost' then redis.call('SET', KEYS[3], cjson.encode(r), 'PX', 10000) end`
	if always {
		keep = `redis.call('SET', KEYS[3], cjson.encode(r), 'PX', 10000)`
	}
	return `
local kept = redis.call('GET', KEYS[3])
if kept then return cjson.decode(kept) end
local function run()
` + body + `
end
local r = run()
` + keep + `
return r
`
}

// getScript returns {generation or false, the value or false, the hash's TTL in ms}. A read
// is a use: it renews the session's TTL.
var getScript = redis.NewScript(once(openState+`
if not g then return {false, false, -2} end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {g, redis.call('HGET', KEYS[1], ARGV[4]), redis.call('PTTL', KEYS[1])}
`, false))

// setScript writes ARGV[4] = ARGV[5] and returns {generation}.
var setScript = redis.NewScript(once(openState+`
redis.call('HSETNX', KEYS[1], 'g', ARGV[2])
redis.call('HSET', KEYS[1], ARGV[4], ARGV[5])
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {redis.call('HGET', KEYS[1], 'g')}
`, false))

// stateArgs are the keys and first arguments of a script run by openState.
func (s *Store) stateArgs(session string, extra ...any) (keys []string, args []any) {
	keys = []string{s.stateKey(session), s.clearedKey(session), s.sessionTag(session) + ":run:" + newGeneration()}
	args = append([]any{s.seen.expected(keys[0], time.Now()), newGeneration(), s.ttl.Milliseconds()}, extra...)
	return keys, args
}

// lost reports whether a script's reply says the session's state was lost, and records the
// generation the reply carries either way.
func (s *Store) lost(key string, reply []any, ttl time.Duration) bool {
	if len(reply) == 0 {
		return false
	}
	if reply[0] == "lost" {
		g, _ := reply[1].(string)
		s.seen.saw(key, g, s.ttl, time.Now())
		return true
	}
	g, _ := reply[0].(string)
	s.seen.saw(key, g, ttl, time.Now())
	return false
}

// stateLost is the error of an operation that found the session's state lost.
func stateLost(op string) error {
	return runtime.SessionStateLost("redisstore: " + op + ": the session's state hash is gone before its expiry and was not cleared (Redis restarted without persistence, evicted it, or failed over)")
}

// Get returns the value under key, decoded from JSON as encoding/json decodes into an any:
// numbers come back as float64, objects as map[string]any. Store values that survive a JSON
// round trip. A session whose state Redis lost is reported once, as runtime.SessionStateLost.
func (s *Store) Get(ctx context.Context, session, key string) (any, bool, error) {
	keys, args := s.stateArgs(session, valueField+key)
	reply, err := getScript.Run(ctx, s.client, keys, args...).Slice()
	if err != nil {
		return nil, false, fmt.Errorf("redisstore: get: %w", err)
	}
	if len(reply) == 3 {
		ttl, _ := reply[2].(int64)
		if s.lost(keys[0], reply, time.Duration(ttl)*time.Millisecond) {
			return nil, false, stateLost("get")
		}
	} else if s.lost(keys[0], reply, s.ttl) {
		return nil, false, stateLost("get")
	}
	data, ok := reply[1].(string)
	if !ok {
		return nil, false, nil
	}
	var v any
	if err := json.Unmarshal([]byte(data), &v); err != nil {
		return nil, false, fmt.Errorf("redisstore: get %q: %w", key, err)
	}
	return v, true, nil
}

// Set stores value, as JSON, under key. When Redis lost the session's state, nothing is
// written and the error is runtime.SessionStateLost: the model learns of the loss before it
// builds on state that is not there.
func (s *Store) Set(ctx context.Context, session, key string, value any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("redisstore: set %q: %w", key, err)
	}
	keys, args := s.stateArgs(session, valueField+key, data)
	reply, err := setScript.Run(ctx, s.client, keys, args...).Slice()
	if err != nil {
		return fmt.Errorf("redisstore: set: %w", err)
	}
	if s.lost(keys[0], reply, s.ttl) {
		return stateLost("set")
	}
	return nil
}

// Update replaces the value under key with what fn returns, in an optimistic transaction
// (WATCH/MULTI/EXEC): when another writer changes the session in between, fn runs again on
// the new value. fn may run more than once and must have no other effect. When Redis lost the
// session's state, fn does not run and the error is runtime.SessionStateLost. When the
// transaction was sent and its answer lost, Redis may have applied it: the error is then a
// permanent runtime.ModelError of KindInternal (not KindUnavailable, which says nothing was
// done), so that a call made with an idempotency key keeps its record and is not run again.
func (s *Store) Update(ctx context.Context, session, key string, fn func(old any, ok bool) (any, error)) error {
	k, cleared := s.stateKey(session), s.clearedKey(session)
	for range maxUpdateTries {
		expected, generation := s.seen.expected(k, time.Now()), newGeneration()
		var lost bool
		err := s.client.Watch(ctx, func(tx *redis.Tx) error {
			var gen, value *redis.StringCmd
			var exists, gone *redis.IntCmd
			if _, err := tx.Pipelined(ctx, func(p redis.Pipeliner) error {
				gen, value = p.HGet(ctx, k, generationField), p.HGet(ctx, k, valueField+key)
				exists, gone = p.Exists(ctx, k), p.Exists(ctx, cleared)
				return nil
			}); err != nil && !errors.Is(err, redis.Nil) {
				return err
			}
			if g := gen.Val(); g != "" {
				generation = g
			} else if exists.Val() == 0 && expected != "" && gone.Val() == 0 {
				lost = true
				_, err := tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
					p.HSet(ctx, k, generationField, generation)
					p.PExpire(ctx, k, s.ttl)
					return nil
				})
				return err
			}
			var old any
			data, err := value.Bytes()
			found := err == nil
			switch {
			case errors.Is(err, redis.Nil):
			case err != nil:
				return err
			default:
				if err := json.Unmarshal(data, &old); err != nil {
					return fmt.Errorf("redisstore: update %q: %w", key, err)
				}
			}
			v, err := fn(old, found)
			if err != nil {
				return &fnError{err}
			}
			data, err = json.Marshal(v)
			if err != nil {
				return fmt.Errorf("redisstore: update %q: %w", key, err)
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.HSetNX(ctx, k, generationField, generation)
				p.HSet(ctx, k, valueField+key, data)
				p.PExpire(ctx, k, s.ttl)
				return nil
			})
			if err != nil && !errors.Is(err, redis.TxFailedErr) {
				return &uncertainError{err}
			}
			return err
		}, k, cleared)
		var fe *fnError
		var ue *uncertainError
		switch {
		case errors.As(err, &ue):
			return writeUncertain(ue.err)
		case err == nil:
			s.seen.saw(k, generation, s.ttl, time.Now())
			if lost {
				return stateLost("update")
			}
			return nil
		case errors.As(err, &fe):
			return fe.err
		case !errors.Is(err, redis.TxFailedErr):
			return fmt.Errorf("redisstore: update: %w", err)
		}
	}
	return fmt.Errorf("redisstore: update %q: gave up after %d conflicting writes", key, maxUpdateTries)
}

// uncertainError is the failure of a transaction Redis may have applied: MULTI/EXEC was sent
// and its answer never came (the connection broke, Redis shut down).
type uncertainError struct{ err error }

func (e *uncertainError) Error() string { return e.err.Error() }

// writeUncertain is Update's error when Redis may have applied the write: not unavailable,
// which promises that nothing was done (a call made with an idempotency key would then be run
// again by its retry, and write twice), but internal and permanent, so that the registry
// neither runs the handler again nor frees the call's key: a retry gets this answer again, and
// the model checks the state before it does the work once more.
func writeUncertain(err error) error {
	return runtime.Permanent(&runtime.ModelError{
		Kind: runtime.KindInternal,
		Message: "the session's state may or may not have been saved: the connection to its store broke while it was being saved. " +
			"Check the state before you do this again",
		Err: fmt.Errorf("redisstore: update: the transaction's answer was lost, so Redis may have applied it: %w", err),
	})
}

// fnError carries the error of Update's fn out of the transaction unchanged.
type fnError struct{ err error }

func (e *fnError) Error() string { return e.err.Error() }

// Delete removes key; it is a use of the session, which renews its TTL.
func (s *Store) Delete(ctx context.Context, session, key string) error {
	k := s.stateKey(session)
	if _, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HDel(ctx, k, valueField+key)
		p.PExpire(ctx, k, s.ttl)
		return nil
	}); err != nil {
		return fmt.Errorf("redisstore: delete: %w", err)
	}
	return nil
}

// Clear forgets session: its state and its loop-guard counters. It leaves a tombstone for
// SessionTTL, so that replicas that remember the session do not take it for lost.
func (s *Store) Clear(ctx context.Context, session string) error {
	k := s.stateKey(session)
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, k)
		p.Set(ctx, s.clearedKey(session), "1", s.ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisstore: clear: %w", err)
	}
	s.seen.forget(k)
	return nil
}

// acquire checks every counter against its limit, then increments them all, in one script:
// atomic across every replica. ARGV after openState's: field/limit pairs. It returns
// {generation, the index of the first counter at its limit or -1}.
var acquire = redis.NewScript(once(openState+`
redis.call('HSETNX', KEYS[1], 'g', ARGV[2])
g = redis.call('HGET', KEYS[1], 'g')
for i = 4, #ARGV, 2 do
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 then
    local n = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
    if n >= limit then
      redis.call('PEXPIRE', KEYS[1], ARGV[3])
      return {g, (i - 4) / 2}
    end
  end
end
for i = 4, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return {g, -1}
`, true))

// Acquire implements runtime.SharedCounters with a Lua script. Counters Redis lost with the
// session's state are reported once, as runtime.SessionStateLost, and nothing is counted.
func (s *Store) Acquire(ctx context.Context, session string, counters []runtime.Counter) (int, error) {
	extra := make([]any, 0, 2*len(counters))
	for _, c := range counters {
		extra = append(extra, counterField+c.Key, strconv.Itoa(c.Limit))
	}
	keys, args := s.stateArgs(session, extra...)
	reply, err := acquire.Run(ctx, s.client, keys, args...).Slice()
	if err != nil {
		return 0, fmt.Errorf("redisstore: acquire: %w", err)
	}
	if s.lost(keys[0], reply, s.ttl) {
		return 0, stateLost("acquire")
	}
	refused, _ := reply[1].(int64)
	return int(refused), nil
}
