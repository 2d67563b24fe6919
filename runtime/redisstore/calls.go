package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolgen-go/toolgen/runtime"
)

// DefaultMaxCallsPerSession bounds the call records (runtime.IdempotencyStore) one session
// keeps at once, unless Options.MaxCallsPerSession says otherwise.
const DefaultMaxCallsPerSession = 1000

var _ runtime.IdempotencyStore = (*Store)(nil)

// A session's call records are two keys in its slot: a hash whose field named by a key's hash
// holds the record ({s: state, f: fingerprint, o: owner, l: lease end in ms}, JSON) and the
// field beside it with ":r" its result, and a sorted set of the same fields by when each
// expires, so that a claim forgets the expired ones and counts the rest. Times are Redis's
// own (TIME), so the replicas' clocks do not matter.
func (s *Store) callKeys(session string) []string {
	tag := s.sessionTag(session)
	return []string{tag + ":calls", tag + ":calls:exp"}
}

// callField names key in a session's records: a hash, so that any key a client sends makes
// a short field.
func callField(key string) string {
	sum := sha256.Sum256([]byte(key))
	return base64.RawURLEncoding.EncodeToString(sum[:18])
}

// openCalls begins every script on a session's records: now (ms), and the expired records
// forgotten. extendKeys(ms) makes both keys live at least ms from now.
const openCalls = `
local t = redis.call('TIME')
local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
local expired = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', now)
for _, f in ipairs(expired) do redis.call('HDEL', KEYS[1], f, f .. ':r') end
if #expired > 0 then redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now) end
local function extendKeys(ms)
  for _, k in ipairs(KEYS) do
    if redis.call('PTTL', k) < ms then redis.call('PEXPIRE', k, ms) end
  end
end
local function expireAt(f, at)
  local old = tonumber(redis.call('ZSCORE', KEYS[2], f) or '0')
  if at > old then redis.call('ZADD', KEYS[2], at, f) end
  extendKeys(at - now)
end
`

// claimScript: ARGV field, fingerprint, owner, lease ms, keep ms, take stale ('1'), the most
// records. It returns {state, fingerprint, owner, result or false}, or {'full'}.
var claimScript = redis.NewScript(openCalls + `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if cur then
  local rec = cjson.decode(cur)
  if rec.s == 'running' and tonumber(rec.l) <= now then rec.s = 'stale' end
  if rec.s ~= 'stale' or ARGV[6] ~= '1' or rec.f ~= ARGV[2] then
    return {rec.s, rec.f, rec.o, redis.call('HGET', KEYS[1], ARGV[1] .. ':r') or false}
  end
elseif redis.call('ZCARD', KEYS[2]) >= tonumber(ARGV[7]) then
  return {'full'}
end
local lease = now + tonumber(ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode({s = 'running', f = ARGV[2], o = ARGV[3], l = lease}))
redis.call('HDEL', KEYS[1], ARGV[1] .. ':r')
expireAt(ARGV[1], math.max(now + tonumber(ARGV[5]), lease))
return {'running', ARGV[2], ARGV[3], false}
`)

// renewScript: ARGV field, owner, lease ms (<= 0: end it now). It returns 1 when owner holds
// the record.
var renewScript = redis.NewScript(openCalls + `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local rec = cjson.decode(cur)
if rec.o ~= ARGV[2] or rec.s == 'done' then return 0 end
local lease = tonumber(ARGV[3])
if lease <= 0 then
  rec.s, rec.l = 'stale', now
else
  rec.s, rec.l = 'running', now + lease
  expireAt(ARGV[1], now + lease)
end
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(rec))
return 1
`)

// finishScript: ARGV field, owner, keep ms, result, and '0' in ARGV[5] to delete the record.
var finishScript = redis.NewScript(openCalls + `
local cur = redis.call('HGET', KEYS[1], ARGV[1])
if not cur then return 0 end
local rec = cjson.decode(cur)
if rec.o ~= ARGV[2] or rec.s == 'done' then return 0 end
if ARGV[5] == '0' then
  redis.call('HDEL', KEYS[1], ARGV[1], ARGV[1] .. ':r')
  redis.call('ZREM', KEYS[2], ARGV[1])
  return 1
end
rec.s = 'done'
redis.call('HSET', KEYS[1], ARGV[1], cjson.encode(rec), ARGV[1] .. ':r', ARGV[4])
local at = now + tonumber(ARGV[3])
redis.call('ZADD', KEYS[2], at, ARGV[1])
extendKeys(at - now)
return 1
`)

// ClaimCall implements runtime.IdempotencyStore in one script: atomic across replicas. A
// session keeps at most Options.MaxCallsPerSession records at once; past it a new claim
// fails (the registry refuses the call, retryably). Redis's maxmemory bounds them all.
func (s *Store) ClaimCall(ctx context.Context, session, key string, claim runtime.CallClaim) (runtime.CallRecord, error) {
	take := "0"
	if claim.TakeStale {
		take = "1"
	}
	reply, err := claimScript.Run(ctx, s.client, s.callKeys(session), callField(key), claim.Fingerprint, claim.Owner,
		claim.Lease.Milliseconds(), claim.Keep.Milliseconds(), take, s.maxCalls).Slice()
	if err != nil {
		return runtime.CallRecord{}, fmt.Errorf("redisstore: claim call: %w", err)
	}
	if len(reply) < 4 {
		return runtime.CallRecord{}, fmt.Errorf("redisstore: claim call: the session holds %d call records, the most it may", s.maxCalls)
	}
	rec := runtime.CallRecord{}
	state, _ := reply[0].(string)
	rec.State = runtime.CallState(state)
	rec.Fingerprint, _ = reply[1].(string)
	rec.Owner, _ = reply[2].(string)
	if r, ok := reply[3].(string); ok {
		rec.Result = []byte(r)
	}
	return rec, nil
}

// RenewCall implements runtime.IdempotencyStore.
func (s *Store) RenewCall(ctx context.Context, session, key, owner string, lease time.Duration) (bool, error) {
	n, err := renewScript.Run(ctx, s.client, s.callKeys(session), callField(key), owner, lease.Milliseconds()).Int()
	if err != nil {
		return false, fmt.Errorf("redisstore: renew call: %w", err)
	}
	return n == 1, nil
}

// FinishCall implements runtime.IdempotencyStore.
func (s *Store) FinishCall(ctx context.Context, session, key, owner string, result []byte, keep time.Duration) error {
	keepIt := "1"
	if result == nil {
		keepIt = "0"
	}
	if err := finishScript.Run(ctx, s.client, s.callKeys(session), callField(key), owner, keep.Milliseconds(), result, keepIt).Err(); err != nil {
		return fmt.Errorf("redisstore: finish call: %w", err)
	}
	return nil
}
