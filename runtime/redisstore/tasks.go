package redisstore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

var _ toolmcp.TaskStore = (*Tasks)(nil)

// Tasks is the Store as a runtime/mcp TaskStore (its methods differ from the session
// store's): toolmcp.WithTaskStore(store.Tasks()) on every replica, so that tasks/get,
// tasks/update and tasks/cancel reach a task whichever replica made it, and a task whose
// replica died is reported failed (its run stops beating) rather than polled until its TTL.
type Tasks struct{ *Store }

// Tasks returns the MCP task store kept in the store.
func (s *Store) Tasks() *Tasks { return &Tasks{s} }

// The task keys share one hash tag, so that Create's script may touch them all on a Redis
// Cluster: a string per task (its JSON, expiring with it), a sorted set of the live ids
// scored by expiry (the store's bound), and per owner a sorted set of its unfinished ids (the
// owner's bound), which a task leaves when it ends or expires.
func (s *Store) taskKey(parts ...string) string {
	k := s.prefix + "{tasks}"
	for _, p := range parts {
		k += ":" + p
	}
	return k
}

// ownerHash keys an owner by a hash: owners hold user ids and session keys.
func ownerHash(owner string) string {
	sum := sha256.Sum256([]byte(owner))
	return hex.EncodeToString(sum[:16])
}

func (s *Store) taskKeys(id, owner string) (rec, live, active string) {
	return s.taskKey("rec", id), s.taskKey("live"), s.taskKey("active", ownerHash(owner))
}

// createTask: insert-if-absent under the bounds. KEYS: rec, live, active. ARGV: now (ms),
// maxPerOwner, maxTotal, the task's JSON, expires (ms), id. Returns 1, or -1 (the owner's
// bound), -2 (the store's), -3 (the id exists). The same task again is created already: 1, as
// go-redis runs the script again when its answer was lost (MaxRetries), and the task exists.
var createTask = redis.NewScript(`
local existing = redis.call('GET', KEYS[1])
if existing then
  if existing == ARGV[4] then return 1 end
  return -3
end
local now = tonumber(ARGV[1])
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[3], '-inf', now)
local perOwner, total = tonumber(ARGV[2]), tonumber(ARGV[3])
if perOwner > 0 and redis.call('ZCARD', KEYS[3]) >= perOwner then return -1 end
if total > 0 and redis.call('ZCARD', KEYS[2]) >= total then return -2 end
redis.call('SET', KEYS[1], ARGV[4], 'PXAT', ARGV[5])
redis.call('ZADD', KEYS[2], ARGV[5], ARGV[6])
redis.call('ZADD', KEYS[3], ARGV[5], ARGV[6])
redis.call('PEXPIREAT', KEYS[2], ARGV[5], 'GT')
redis.call('PEXPIREAT', KEYS[3], ARGV[5], 'GT')
if redis.call('PTTL', KEYS[2]) < 0 then redis.call('PEXPIREAT', KEYS[2], ARGV[5]) end
if redis.call('PTTL', KEYS[3]) < 0 then redis.call('PEXPIREAT', KEYS[3], ARGV[5]) end
return 1
`)

// Create implements toolmcp.TaskStore.
func (t *Tasks) Create(ctx context.Context, task toolmcp.Task, maxPerOwner, maxTotal int) error {
	data, err := json.Marshal(task)
	if err != nil {
		return fmt.Errorf("redisstore: task: %w", err)
	}
	rec, live, active := t.taskKeys(task.ID, task.Owner)
	n, err := createTask.Run(ctx, t.client, []string{rec, live, active},
		time.Now().UnixMilli(), maxPerOwner, maxTotal, data, task.Expires.UnixMilli(), task.ID).Int()
	switch {
	case err != nil:
		return fmt.Errorf("redisstore: task: %w", err)
	case n == -1:
		return &toolmcp.TaskLimitError{Limit: maxPerOwner, Owner: true}
	case n == -2:
		return &toolmcp.TaskLimitError{Limit: maxTotal}
	case n == -3:
		return fmt.Errorf("redisstore: task %s exists already", task.ID)
	}
	return nil
}

// Get implements toolmcp.TaskStore.
func (t *Tasks) Get(ctx context.Context, owner, id string) (toolmcp.Task, error) {
	rec, _, _ := t.taskKeys(id, owner)
	data, err := t.client.Get(ctx, rec).Bytes()
	if errors.Is(err, redis.Nil) {
		return toolmcp.Task{}, toolmcp.ErrTaskNotFound
	}
	if err != nil {
		return toolmcp.Task{}, fmt.Errorf("redisstore: task: %w", err)
	}
	return decodeTask(data, owner)
}

// decodeTask reads a stored task, which only its owner finds.
func decodeTask(data []byte, owner string) (toolmcp.Task, error) {
	var task toolmcp.Task
	if err := json.Unmarshal(data, &task); err != nil {
		return toolmcp.Task{}, fmt.Errorf("redisstore: task: %w", err)
	}
	if task.Owner != owner || !time.Now().Before(task.Expires) {
		return toolmcp.Task{}, toolmcp.ErrTaskNotFound
	}
	return task, nil
}

// Update implements toolmcp.TaskStore: an optimistic transaction on the task's key, which
// takes a task that ends out of its owner's unfinished ones.
func (t *Tasks) Update(ctx context.Context, owner, id string, change func(*toolmcp.Task) bool) (toolmcp.Task, error) {
	rec, _, active := t.taskKeys(id, owner)
	for range maxUpdateTries {
		var out toolmcp.Task
		err := t.client.Watch(ctx, func(tx *redis.Tx) error {
			data, err := tx.Get(ctx, rec).Bytes()
			if errors.Is(err, redis.Nil) {
				return toolmcp.ErrTaskNotFound
			}
			if err != nil {
				return err
			}
			task, err := decodeTask(data, owner)
			if err != nil {
				return err
			}
			out = task
			changed, _ := decodeTask(data, owner) // a copy of its own, maps included
			if !change(&changed) {
				return nil
			}
			changed.ID, changed.Owner = task.ID, task.Owner
			data, err = json.Marshal(changed)
			if err != nil {
				return err
			}
			_, err = tx.TxPipelined(ctx, func(p redis.Pipeliner) error {
				p.SetArgs(ctx, rec, data, redis.SetArgs{KeepTTL: true})
				if changed.Terminal() {
					p.ZRem(ctx, active, id)
				}
				return nil
			})
			if err == nil {
				out = changed
			}
			return err
		}, rec)
		switch {
		case err == nil:
			return out, nil
		case errors.Is(err, toolmcp.ErrTaskNotFound):
			return toolmcp.Task{}, err
		case !errors.Is(err, redis.TxFailedErr):
			return toolmcp.Task{}, fmt.Errorf("redisstore: task: %w", err)
		}
	}
	return toolmcp.Task{}, fmt.Errorf("redisstore: task %s: gave up after %d conflicting writes", id, maxUpdateTries)
}
