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

// DefaultSessionTTL is how long a session's state lives after its last write, unless
// Options.SessionTTL says otherwise.
const DefaultSessionTTL = 24 * time.Hour

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
	// its last write (DefaultSessionTTL when zero), so that sessions nobody ends with
	// Registry.EndSession do not stay forever.
	SessionTTL time.Duration
	// ResultMaxAge is how long a stored result stays readable (runtime.DefaultResultMaxAge
	// when zero).
	ResultMaxAge time.Duration
	// ResultMaxBytes refuses results larger than this (runtime.DefaultResultMaxBytes when
	// zero). Redis's maxmemory bounds them all.
	ResultMaxBytes int64
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

const (
	valueField   = "v:"
	counterField = "c:"
)

// Get returns the value under key, decoded from JSON as encoding/json decodes into an any:
// numbers come back as float64, objects as map[string]any. Store values that survive a JSON
// round trip.
func (s *Store) Get(ctx context.Context, session, key string) (any, bool, error) {
	data, err := s.client.HGet(ctx, s.stateKey(session), valueField+key).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("redisstore: get: %w", err)
	}
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return nil, false, fmt.Errorf("redisstore: get %q: %w", key, err)
	}
	return v, true, nil
}

// Set stores value, as JSON, under key.
func (s *Store) Set(ctx context.Context, session, key string, value any) error {
	data, err := json.Marshal(value)
	if err != nil {
		return fmt.Errorf("redisstore: set %q: %w", key, err)
	}
	k := s.stateKey(session)
	_, err = s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.HSet(ctx, k, valueField+key, data)
		p.PExpire(ctx, k, s.ttl)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisstore: set: %w", err)
	}
	return nil
}

// Update replaces the value under key with what fn returns, in an optimistic transaction
// (WATCH/MULTI/EXEC): when another writer changes the session in between, fn runs again on
// the new value. fn may run more than once and must have no other effect.
func (s *Store) Update(ctx context.Context, session, key string, fn func(old any, ok bool) (any, error)) error {
	k := s.stateKey(session)
	for range maxUpdateTries {
		err := s.client.Watch(ctx, func(tx *redis.Tx) error {
			var old any
			data, err := tx.HGet(ctx, k, valueField+key).Bytes()
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
				p.HSet(ctx, k, valueField+key, data)
				p.PExpire(ctx, k, s.ttl)
				return nil
			})
			return err
		}, k)
		var fe *fnError
		switch {
		case err == nil:
			return nil
		case errors.As(err, &fe):
			return fe.err
		case !errors.Is(err, redis.TxFailedErr):
			return fmt.Errorf("redisstore: update: %w", err)
		}
	}
	return fmt.Errorf("redisstore: update %q: gave up after %d conflicting writes", key, maxUpdateTries)
}

// fnError carries the error of Update's fn out of the transaction unchanged.
type fnError struct{ err error }

func (e *fnError) Error() string { return e.err.Error() }

// Delete removes key.
func (s *Store) Delete(ctx context.Context, session, key string) error {
	if err := s.client.HDel(ctx, s.stateKey(session), valueField+key).Err(); err != nil {
		return fmt.Errorf("redisstore: delete: %w", err)
	}
	return nil
}

// Clear forgets session: its state and its loop-guard counters.
func (s *Store) Clear(ctx context.Context, session string) error {
	if err := s.client.Del(ctx, s.stateKey(session)).Err(); err != nil {
		return fmt.Errorf("redisstore: clear: %w", err)
	}
	return nil
}

// acquire checks every counter against its limit, then increments them all, in one script:
// atomic across every replica. ARGV: the session's TTL in ms, then field/limit pairs.
var acquire = redis.NewScript(`
for i = 2, #ARGV, 2 do
  local limit = tonumber(ARGV[i + 1])
  if limit > 0 then
    local n = tonumber(redis.call('HGET', KEYS[1], ARGV[i]) or '0')
    if n >= limit then return (i - 2) / 2 end
  end
end
for i = 2, #ARGV, 2 do redis.call('HINCRBY', KEYS[1], ARGV[i], 1) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return -1
`)

// Acquire implements runtime.SharedCounters with a Lua script.
func (s *Store) Acquire(ctx context.Context, session string, counters []runtime.Counter) (int, error) {
	args := make([]any, 0, 1+2*len(counters))
	args = append(args, s.ttl.Milliseconds())
	for _, c := range counters {
		args = append(args, counterField+c.Key, strconv.Itoa(c.Limit))
	}
	refused, err := acquire.Run(ctx, s.client, []string{s.stateKey(session)}, args...).Int()
	if err != nil {
		return 0, fmt.Errorf("redisstore: acquire: %w", err)
	}
	return refused, nil
}
