package redisstore

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolgen-go/toolgen/runtime"
)

var _ runtime.ApprovalStore = (*Approvals)(nil)

// Approvals is the Store as a runtime.ApprovalStore (its Get differs from the session
// store's): runtime.WithApprovalStore(store.Approvals()), with a runtime.WithApprovalKey that
// every replica shares.
type Approvals struct{ *Store }

// Approvals returns the approval queue kept in the store.
func (s *Store) Approvals() *Approvals { return &Approvals{s} }

// The approval queue's keys share one hash tag, so that its scripts may touch them all on a
// Redis Cluster: a hash per record (fields req, state, dec, created, expires), a sorted set
// of live ids scored by Expires, a hash of their RawArgs sizes, and per session a sorted set
// of every id, scored by Forget.
func (s *Store) approvalKey(parts ...string) string {
	k := s.prefix + "{approvals}"
	for _, p := range parts {
		k += ":" + p
	}
	return k
}

func (s *Store) approvalKeys(id, session string) []string {
	return []string{
		s.approvalKey("rec", id),
		s.approvalKey("live"),
		s.approvalKey("bytes"),
		s.approvalKey("session", s.sessionHash(session)),
	}
}

// addApproval: insert-if-absent under the limits. ARGV: now, perSession, total, bytes, id,
// the request's JSON, its RawArgs size, created, expires, forget (ms).
var addApproval = redis.NewScript(`
if redis.call('EXISTS', KEYS[1]) == 1 then return 0 end
local now = tonumber(ARGV[1])
local gone = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, id in ipairs(gone) do redis.call('HDEL', KEYS[3], id) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[4], '-inf', now)
local perSession, total, bytes = tonumber(ARGV[2]), tonumber(ARGV[3]), tonumber(ARGV[4])
if perSession > 0 then
  local n = 0
  for _, id in ipairs(redis.call('ZRANGE', KEYS[4], 0, -1)) do
    if redis.call('ZSCORE', KEYS[2], id) then n = n + 1 end
  end
  if n >= perSession then return 1 end
end
if total > 0 and redis.call('ZCARD', KEYS[2]) >= total then return 1 end
if bytes > 0 then
  local sum = tonumber(ARGV[7])
  for _, b in ipairs(redis.call('HVALS', KEYS[3])) do sum = sum + tonumber(b) end
  if sum > bytes then return 1 end
end
redis.call('HSET', KEYS[1], 'req', ARGV[6], 'state', 'pending', 'created', ARGV[8], 'expires', ARGV[9])
redis.call('PEXPIREAT', KEYS[1], ARGV[10])
redis.call('ZADD', KEYS[2], ARGV[9], ARGV[5])
redis.call('HSET', KEYS[3], ARGV[5], ARGV[7])
redis.call('ZADD', KEYS[4], ARGV[10], ARGV[5])
return 0
`)

// transitionApproval: compare-and-set of the state. ARGV: id, from, to, the decision's JSON
// ("" to keep it), expires, forget (ms), and the run's own id: go-redis runs the script again
// when its answer was lost (MaxRetries), and the second run, finding the state moved by the
// first, must still answer 1 (else the replica that consumed an approval would not run its
// call, and no other would either).
var transitionApproval = redis.NewScript(`
if redis.call('HGET', KEYS[1], 'run') == ARGV[7] then return 1 end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= ARGV[2] then return 0 end
redis.call('HSET', KEYS[1], 'state', ARGV[3], 'run', ARGV[7])
if ARGV[4] ~= '' then
  redis.call('HSET', KEYS[1], 'dec', ARGV[4], 'expires', ARGV[5])
  redis.call('PEXPIREAT', KEYS[1], ARGV[6])
  redis.call('ZADD', KEYS[4], ARGV[6], ARGV[1])
end
if ARGV[3] == 'consumed' then
  redis.call('ZREM', KEYS[2], ARGV[1])
  redis.call('HDEL', KEYS[3], ARGV[1])
elseif ARGV[4] ~= '' then
  redis.call('ZADD', KEYS[2], ARGV[5], ARGV[1])
end
return 1
`)

// Add implements runtime.ApprovalStore. The request is kept as JSON without Args (the
// registry decodes RawArgs again).
func (s *Approvals) Add(ctx context.Context, rec runtime.ApprovalRecord, limits runtime.ApprovalLimits, now time.Time) (runtime.ApprovalRecord, error) {
	req := rec.Request
	req.Args = nil
	data, err := json.Marshal(req)
	if err != nil {
		return runtime.ApprovalRecord{}, fmt.Errorf("redisstore: approval: %w", err)
	}
	full, err := addApproval.Run(ctx, s.client, s.approvalKeys(req.ID, req.Session),
		now.UnixMilli(), limits.PerSession, limits.Total, limits.Bytes, req.ID, data, len(req.RawArgs),
		rec.Created.UnixMilli(), rec.Expires.UnixMilli(), rec.Forget.UnixMilli()).Int()
	if err != nil {
		return runtime.ApprovalRecord{}, fmt.Errorf("redisstore: approval add: %w", err)
	}
	if full == 1 {
		return runtime.ApprovalRecord{}, runtime.ErrApprovalLimit
	}
	got, ok, err := s.Get(ctx, req.ID)
	if err != nil {
		return runtime.ApprovalRecord{}, err
	}
	if !ok { // forgotten in between: the caller asks again
		return runtime.ApprovalRecord{}, fmt.Errorf("redisstore: approval %s vanished", req.ID)
	}
	return got, nil
}

// Get implements runtime.ApprovalStore.
func (s *Approvals) Get(ctx context.Context, id string) (runtime.ApprovalRecord, bool, error) {
	fields, err := s.client.HGetAll(ctx, s.approvalKey("rec", id)).Result()
	if err != nil {
		return runtime.ApprovalRecord{}, false, fmt.Errorf("redisstore: approval get: %w", err)
	}
	if fields["req"] == "" {
		return runtime.ApprovalRecord{}, false, nil
	}
	var rec runtime.ApprovalRecord
	if err := json.Unmarshal([]byte(fields["req"]), &rec.Request); err != nil {
		return runtime.ApprovalRecord{}, false, fmt.Errorf("redisstore: approval %s: %w", id, err)
	}
	if d := fields["dec"]; d != "" {
		if err := json.Unmarshal([]byte(d), &rec.Decision); err != nil {
			return runtime.ApprovalRecord{}, false, fmt.Errorf("redisstore: approval %s: %w", id, err)
		}
		if string(rec.Decision.Args) == "null" {
			rec.Decision.Args = nil // no edited arguments (JSON gives back "null", which would be {})
		}
	}
	rec.State = runtime.ApprovalState(fields["state"])
	rec.Created = unixMilli(fields["created"])
	rec.Expires = unixMilli(fields["expires"])
	if ttl, err := s.client.PExpireTime(ctx, s.approvalKey("rec", id)).Result(); err == nil && ttl > 0 {
		rec.Forget = time.UnixMilli(ttl.Milliseconds())
	}
	return rec, true, nil
}

func unixMilli(s string) time.Time {
	ms, _ := strconv.ParseInt(s, 10, 64)
	return time.UnixMilli(ms)
}

// Transition implements runtime.ApprovalStore, as a compare-and-set in a script: of many
// replicas acting on one decision, one wins.
func (s *Approvals) Transition(ctx context.Context, id string, from, to runtime.ApprovalState, dec runtime.Decision, expires, forget time.Time) (runtime.ApprovalRecord, bool, error) {
	rec, found, err := s.Get(ctx, id)
	if err != nil || !found {
		return rec, false, err
	}
	var decJSON []byte
	if to == runtime.ApprovalApproved || to == runtime.ApprovalDenied {
		if decJSON, err = json.Marshal(dec); err != nil {
			return rec, false, fmt.Errorf("redisstore: approval: %w", err)
		}
	}
	moved, err := transitionApproval.Run(ctx, s.client, s.approvalKeys(id, rec.Request.Session),
		id, string(from), string(to), string(decJSON), expires.UnixMilli(), forget.UnixMilli(), newGeneration()).Int()
	if err != nil {
		return rec, false, fmt.Errorf("redisstore: approval transition: %w", err)
	}
	rec, _, err = s.Get(ctx, id)
	return rec, moved == 1 && err == nil, err
}

// Pending implements runtime.ApprovalStore.
func (s *Approvals) Pending(ctx context.Context, now time.Time) ([]runtime.ApprovalRecord, error) {
	ids, err := s.client.ZRangeByScore(ctx, s.approvalKey("live"), &redis.ZRangeBy{Min: "(" + strconv.FormatInt(now.UnixMilli(), 10), Max: "+inf"}).Result()
	if err != nil {
		return nil, fmt.Errorf("redisstore: approvals pending: %w", err)
	}
	var out []runtime.ApprovalRecord
	for _, id := range ids {
		rec, ok, err := s.Get(ctx, id)
		if err != nil {
			return nil, err
		}
		if ok && rec.State == runtime.ApprovalPending {
			out = append(out, rec)
		}
	}
	slices.SortFunc(out, func(a, b runtime.ApprovalRecord) int { return cmp.Compare(a.Created.UnixNano(), b.Created.UnixNano()) })
	return out, nil
}

// ClearSession implements runtime.ApprovalStore.
func (s *Approvals) ClearSession(ctx context.Context, session string) error {
	sessKey := s.approvalKey("session", s.sessionHash(session))
	ids, err := s.client.ZRange(ctx, sessKey, 0, -1).Result()
	if err != nil {
		return fmt.Errorf("redisstore: approvals clear: %w", err)
	}
	_, err = s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			p.Del(ctx, s.approvalKey("rec", id))
			p.ZRem(ctx, s.approvalKey("live"), id)
			p.HDel(ctx, s.approvalKey("bytes"), id)
		}
		p.Del(ctx, sessKey)
		return nil
	})
	if err != nil {
		return fmt.Errorf("redisstore: approvals clear: %w", err)
	}
	return nil
}
