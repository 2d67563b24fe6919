package redisstore

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolgen-go/toolgen/runtime"
)

var _ runtime.ResultStore = (*Store)(nil)

// resultKeys are the keys of a stored result: its bytes (a string, so that Read fetches a
// page with GETRANGE) and its facts (a hash). Both expire together.
func (s *Store) resultKeys(session, id string) (data, meta string) {
	data = s.sessionTag(session) + ":result:" + id
	return data, data + ":meta"
}

// Put keeps a result for Options.ResultMaxAge under a new id in its session. A result larger
// than Options.ResultMaxBytes is refused; the total is bounded by the expiry and by Redis's
// own maxmemory.
func (s *Store) Put(ctx context.Context, r runtime.StoredResult) (string, error) {
	if n := int64(len(r.Data)); n > s.resultMaxBytes {
		return "", fmt.Errorf("redisstore: result of %d bytes is larger than the store's %d", n, s.resultMaxBytes)
	}
	id := runtime.NewResultID()
	data, meta := s.resultKeys(r.Session, id)
	_, err := s.client.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Set(ctx, data, r.Data, s.resultMaxAge)
		p.HSet(ctx, meta, "type", r.ContentType, "tool", r.Tool, "call", r.CallID)
		p.PExpire(ctx, meta, s.resultMaxAge)
		return nil
	})
	if err != nil {
		return "", fmt.Errorf("redisstore: put result: %w", err)
	}
	return id, nil
}

// Read returns up to limit bytes of result id of session from offset, in one round trip.
// runtime.ErrResultNotFound when the id is malformed, unknown, expired or another session's.
func (s *Store) Read(ctx context.Context, session, id string, offset, limit int64) (runtime.ResultPage, error) {
	if !runtime.ValidResultID(id) {
		return runtime.ResultPage{}, runtime.ErrResultNotFound
	}
	data, meta := s.resultKeys(session, id)
	var (
		facts *redis.SliceCmd
		size  *redis.IntCmd
		part  *redis.StringCmd
		ttl   *redis.DurationCmd
	)
	_, err := s.client.Pipelined(ctx, func(p redis.Pipeliner) error {
		facts = p.HMGet(ctx, meta, "type", "tool")
		size = p.StrLen(ctx, data)
		if offset >= 0 && limit > 0 {
			part = p.GetRange(ctx, data, offset, offset+limit-1)
		}
		ttl = p.PTTL(ctx, data)
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		return runtime.ResultPage{}, fmt.Errorf("redisstore: read result: %w", err)
	}
	vals := facts.Val()
	contentType, _ := vals[0].(string)
	tool, _ := vals[1].(string)
	if contentType == "" || ttl.Val() <= 0 {
		return runtime.ResultPage{}, runtime.ErrResultNotFound
	}
	pg := runtime.ResultPage{Size: size.Val(), ContentType: contentType, Tool: tool, Expires: time.Now().Add(ttl.Val())}
	if part != nil && len(part.Val()) > 0 {
		pg.Data = []byte(part.Val())
	}
	return pg, nil
}
