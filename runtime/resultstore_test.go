package runtime_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestResultSizeCap(t *testing.T) {
	big := strings.Repeat("é", 400) // 800 bytes, two per rune
	capped := constTool("big", big)
	capped.MaxResult = 700
	reg := runtime.NewRegistry(runtime.WithLimits(runtime.Limits{MaxResult: 10_000}))
	require.NoError(t, reg.Add(capped, constTool("fits", big)))

	res := reg.Invoke(t.Context(), runtime.Call{ID: "c1", Name: "big", Session: "s1"})
	require.NotNil(t, res.Offloaded)
	assert.LessOrEqual(t, len(res.Text), 700, "what the model reads stays within the cap")
	assert.Equal(t, 800, res.Offloaded.Size)
	assert.NotZero(t, res.Offloaded.Shown)
	assert.Zero(t, res.Offloaded.Shown%2, "the preview is cut at a character boundary")
	assert.True(t, strings.HasPrefix(res.Text, "éé"))
	assert.Contains(t, res.Text, "showing the first ")
	assert.Contains(t, res.Text, res.Offloaded.ID, "the model reads the id")
	assert.NotContains(t, res.Text, "read_result", "no read_result tool: the note does not offer one")
	assert.NotContains(t, res.Text, os.TempDir(), "no host path")

	page, err := reg.ResultStore().Read(t.Context(), "s1", res.Offloaded.ID, 0, 10_000)
	require.NoError(t, err)
	assert.Equal(t, big, string(page.Data))
	assert.Equal(t, int64(800), page.Size)
	assert.Equal(t, runtime.ContentTypeText, page.ContentType)
	assert.Equal(t, "big", page.Tool)

	_, err = reg.ResultStore().Read(t.Context(), "s2", res.Offloaded.ID, 0, 10)
	assert.ErrorIs(t, err, runtime.ErrResultNotFound, "another session cannot read it")

	res = reg.Invoke(t.Context(), runtime.Call{Name: "fits"})
	assert.Equal(t, big, res.Text)
	assert.Nil(t, res.Offloaded)
}

func TestResultCapNoteOffersReadResult(t *testing.T) {
	big := strings.Repeat("x", runtime.DefaultMaxResult+1)
	var read atomic.Value
	readTool := jsonTool(runtime.ReadResultTool, func(ctx context.Context, a struct {
		ID     string `json:"id"`
		Offset int64  `json:"offset"`
	}) runtime.Result {
		p, err := runtime.ReadResult(ctx, a.ID, a.Offset, 5)
		if err != nil {
			return runtime.ErrorResult(err)
		}
		read.Store(string(p.Data))
		return runtime.TextResult(string(p.Data))
	})
	reg := newRegistry(t, constTool("big", big), readTool)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "big", Session: "s"})
	require.NotNil(t, res.Offloaded)
	assert.Contains(t, res.Text, `call read_result with {"id":"`+res.Offloaded.ID+`","offset":`)
	assert.NotContains(t, res.Text, "SHOWN")

	args, _ := json.Marshal(map[string]any{"id": res.Offloaded.ID, "offset": res.Offloaded.Shown})
	got := reg.Invoke(t.Context(), runtime.Call{Name: runtime.ReadResultTool, Args: args, Session: "s"})
	require.False(t, got.IsError, got.Text)
	assert.Equal(t, "xxxxx", got.Text)

	got = reg.Invoke(t.Context(), runtime.Call{Name: runtime.ReadResultTool, Args: args, Session: "other"})
	assert.True(t, got.IsError, "a handler reads only its own session's results")
}

func TestErrorResultsAreCutNotStored(t *testing.T) {
	store := &countingStore{MemoryResultStore: &runtime.MemoryResultStore{}}
	long := strings.Repeat("e", 2000)
	failing := runTool("fail", func(context.Context) runtime.Result {
		return runtime.Result{IsError: true, Text: long, Kind: runtime.KindInternal}
	})
	failing.MaxResult = 500
	reg := runtime.NewRegistry(runtime.WithResultStore(store))
	require.NoError(t, reg.Add(failing))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "fail"})
	assert.True(t, res.IsError)
	assert.LessOrEqual(t, len(res.Text), 500)
	assert.Zero(t, store.puts.Load(), "an error text is never stored")
	require.NotNil(t, res.Offloaded)
	assert.Empty(t, res.Offloaded.ID)
}

func TestStructuredResultIsStoredWhole(t *testing.T) {
	doc := `{"rows":"` + strings.Repeat("r", 3000) + `"}`
	tool := runTool("rows", func(context.Context) runtime.Result {
		return runtime.Result{Text: doc, Structured: json.RawMessage(doc)}
	})
	tool.MaxResult = 1000
	reg := newRegistry(t, tool)
	res := reg.Invoke(t.Context(), runtime.Call{Name: "rows"})
	require.NotNil(t, res.Offloaded)
	assert.Nil(t, res.Structured, "a cut document is not given as structured data")
	page, err := reg.ResultStore().Read(t.Context(), "", res.Offloaded.ID, 0, 1<<20)
	require.NoError(t, err)
	assert.JSONEq(t, doc, string(page.Data))
	assert.Equal(t, runtime.ContentTypeJSON, page.ContentType)
}

// countingStore counts the results put into a store.
type countingStore struct {
	*runtime.MemoryResultStore
	puts atomic.Int32
}

func (c *countingStore) Put(ctx context.Context, r runtime.StoredResult) (string, error) {
	c.puts.Add(1)
	return c.MemoryResultStore.Put(ctx, r)
}

// panickingStore is a broken store.
type panickingStore struct{ runtime.MemoryResultStore }

func (*panickingStore) Put(context.Context, runtime.StoredResult) (string, error) { panic("boom") }

func TestBrokenResultStoreDoesNotBreakTheCall(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithResultStore(&panickingStore{}))
	require.NoError(t, reg.Add(constTool("big", strings.Repeat("x", runtime.DefaultMaxResult*2))))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "big"})
	assert.False(t, res.IsError)
	require.NotNil(t, res.Offloaded)
	assert.Error(t, res.Offloaded.Err)
	assert.Contains(t, res.Text, "could not be kept")
}

// resultStoreContract is what every ResultStore must do; each implementation runs it.
func resultStoreContract(t *testing.T, store runtime.ResultStore) {
	ctx := t.Context()
	id, err := store.Put(ctx, runtime.StoredResult{Session: "a", Tool: "t", ContentType: runtime.ContentTypeText, Data: []byte("0123456789")})
	require.NoError(t, err)
	assert.True(t, strings.HasPrefix(id, "res_"))

	p, err := store.Read(ctx, "a", id, 3, 4)
	require.NoError(t, err)
	assert.Equal(t, "3456", string(p.Data))
	assert.Equal(t, int64(10), p.Size)
	assert.Equal(t, "t", p.Tool)
	assert.True(t, p.Expires.After(time.Now()))

	p, err = store.Read(ctx, "a", id, 8, 100)
	require.NoError(t, err)
	assert.Equal(t, "89", string(p.Data), "the last page is short")
	p, err = store.Read(ctx, "a", id, 100, 5)
	require.NoError(t, err)
	assert.Empty(t, p.Data, "past the end: no data, the size still told")
	assert.Equal(t, int64(10), p.Size)

	for _, bad := range []struct{ session, id string }{{"b", id}, {"a", "res_nope"}, {"a", "../../etc/passwd"}, {"a", ""}} {
		_, err := store.Read(ctx, bad.session, bad.id, 0, 1)
		assert.ErrorIs(t, err, runtime.ErrResultNotFound, "%q in session %q", bad.id, bad.session)
	}

	other, err := store.Put(ctx, runtime.StoredResult{Session: "a", Data: []byte("x")})
	require.NoError(t, err)
	assert.NotEqual(t, id, other)
}

func TestMemoryResultStore(t *testing.T) {
	resultStoreContract(t, &runtime.MemoryResultStore{})

	t.Run("expiry", func(t *testing.T) {
		now := time.Now()
		m := &runtime.MemoryResultStore{MaxAge: time.Minute}
		runtime.SetResultClock(m, func() time.Time { return now })
		id, err := m.Put(t.Context(), runtime.StoredResult{Data: []byte("x")})
		require.NoError(t, err)
		now = now.Add(59 * time.Second)
		_, err = m.Read(t.Context(), "", id, 0, 1)
		require.NoError(t, err)
		now = now.Add(time.Second)
		_, err = m.Read(t.Context(), "", id, 0, 1)
		assert.ErrorIs(t, err, runtime.ErrResultNotFound)
	})

	t.Run("bytes bound drops the oldest", func(t *testing.T) {
		m := &runtime.MemoryResultStore{MaxBytes: 100}
		var ids []string
		for range 5 {
			id, err := m.Put(t.Context(), runtime.StoredResult{Data: make([]byte, 40)})
			require.NoError(t, err)
			ids = append(ids, id)
		}
		for i, id := range ids {
			_, err := m.Read(t.Context(), "", id, 0, 1)
			if i < 3 {
				assert.ErrorIs(t, err, runtime.ErrResultNotFound, "result %d should have made room", i)
			} else {
				assert.NoError(t, err, "result %d", i)
			}
		}
		_, err := m.Put(t.Context(), runtime.StoredResult{Data: make([]byte, 101)})
		assert.Error(t, err, "a result larger than the whole store")
	})
}

func TestDirResultStore(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "results")
	store := &runtime.DirResultStore{Dir: dir}
	resultStoreContract(t, store)
	info, err := os.Stat(dir)
	require.NoError(t, err)
	assert.Equal(t, os.FileMode(0o700), info.Mode().Perm())

	t.Run("bytes bound drops the oldest", func(t *testing.T) {
		s := &runtime.DirResultStore{Dir: filepath.Join(t.TempDir(), "r"), MaxBytes: 100}
		first, err := s.Put(t.Context(), runtime.StoredResult{Data: make([]byte, 60)})
		require.NoError(t, err)
		// Make the first file older by its modification time, which orders the files, rather
		// than by a sleep that a coarse clock could leave tied.
		older := time.Now().Add(-time.Minute)
		require.NoError(t, os.Chtimes(filepath.Join(s.Dir, first), older, older))
		_, err = s.Put(t.Context(), runtime.StoredResult{Data: make([]byte, 60)})
		require.NoError(t, err)
		_, err = s.Read(t.Context(), "", first, 0, 1)
		assert.ErrorIs(t, err, runtime.ErrResultNotFound)
	})

	t.Run("refuses a directory others may use", func(t *testing.T) {
		open := filepath.Join(t.TempDir(), "open")
		require.NoError(t, os.Mkdir(open, 0o700))
		require.NoError(t, os.Chmod(open, 0o777))
		_, err := (&runtime.DirResultStore{Dir: open}).Put(t.Context(), runtime.StoredResult{Data: []byte("x")})
		require.Error(t, err)
		assert.Contains(t, err.Error(), "open to other users")
	})

	t.Run("refuses a symlink", func(t *testing.T) {
		base := t.TempDir()
		target := filepath.Join(base, "target")
		require.NoError(t, os.Mkdir(target, 0o700))
		link := filepath.Join(base, "link")
		require.NoError(t, os.Symlink(target, link))
		_, err := (&runtime.DirResultStore{Dir: link}).Put(t.Context(), runtime.StoredResult{Data: []byte("x")})
		assert.Error(t, err)
		entries, _ := os.ReadDir(target)
		assert.Empty(t, entries, "nothing written through the link")
	})
}

func TestReadResultOutsideACall(t *testing.T) {
	_, err := runtime.ReadResult(t.Context(), "res_000000000000000000000000", 0, 1)
	assert.True(t, errors.Is(err, runtime.ErrResultNotFound))
}

// One session storing result after result displaces at most its share of the others'
// results; alone in the store, it may use all of it.
func TestMemoryResultStoreSessionShare(t *testing.T) {
	ctx := t.Context()
	m := &runtime.MemoryResultStore{MaxBytes: 100} // a session's share: 50
	put := func(session string) string {
		id, err := m.Put(ctx, runtime.StoredResult{Session: session, Data: make([]byte, 30)})
		require.NoError(t, err)
		return id
	}
	readable := func(session, id string) bool {
		_, err := m.Read(ctx, session, id, 0, 1)
		return err == nil
	}
	ann := []string{put("ann"), put("ann"), put("ann")} // 90 bytes: no one else is there
	var bob []string
	for range 10 {
		bob = append(bob, put("bob"))
	}
	assert.False(t, readable("ann", ann[0]), "bob's first result took the oldest of the store")
	assert.True(t, readable("ann", ann[1]), "past its share, bob made room from its own results")
	assert.True(t, readable("ann", ann[2]))
	assert.True(t, readable("bob", bob[9]))
	assert.False(t, readable("bob", bob[8]))

	// Many dropped entries later, the queue is compacted and the order still holds.
	for range 500 {
		bob = append(bob, put("bob"))
	}
	assert.True(t, readable("ann", ann[1]))
	assert.True(t, readable("bob", bob[len(bob)-1]))
}

// DirResultStore gives each session a share as MemoryResultStore does: past it, a session
// makes room from its own files first.
func TestDirResultStoreSessionShare(t *testing.T) {
	ctx := t.Context()
	s := &runtime.DirResultStore{Dir: filepath.Join(t.TempDir(), "r"), MaxBytes: 1000} // share: 500
	age := time.Now().Add(-time.Hour)
	put := func(session string) string {
		id, err := s.Put(ctx, runtime.StoredResult{Session: session, Data: make([]byte, 250)})
		require.NoError(t, err)
		// Files are ordered by modification time: give each a distinct, increasing one.
		age = age.Add(time.Second)
		require.NoError(t, os.Chtimes(filepath.Join(s.Dir, id), age, age))
		return id
	}
	readable := func(session, id string) bool {
		_, err := s.Read(ctx, session, id, 0, 1)
		return err == nil
	}
	ann := []string{put("ann"), put("ann"), put("ann")} // about 780 bytes with headers
	var bob []string
	for range 6 {
		bob = append(bob, put("bob"))
	}
	assert.False(t, readable("ann", ann[0]), "bob's first results took the oldest of the store")
	assert.True(t, readable("ann", ann[2]), "past its share, bob made room from its own files")
	assert.True(t, readable("bob", bob[5]))
	assert.False(t, readable("bob", bob[0]))
}

// A session's only result survives what two sessions storing result after result put in the
// store: room is taken from the sessions holding the most. Before, in an 8 MiB store whose
// share is half, two sessions each within their share evicted a victim's 64 KiB result.
func TestResultStoresKeepASmallSessionsResults(t *testing.T) {
	stores := map[string]func(t *testing.T) (runtime.ResultStore, func(id string)){
		"memory": func(*testing.T) (runtime.ResultStore, func(string)) {
			return &runtime.MemoryResultStore{MaxBytes: 8 << 20}, func(string) {}
		},
		"dir": func(t *testing.T) (runtime.ResultStore, func(string)) {
			s := &runtime.DirResultStore{Dir: filepath.Join(t.TempDir(), "r"), MaxBytes: 8 << 20}
			age := time.Now().Add(-10 * time.Minute) // well within the default MaxAge
			// Files are ordered by modification time: give each a distinct, increasing one.
			return s, func(id string) {
				age = age.Add(time.Second)
				require.NoError(t, os.Chtimes(filepath.Join(s.Dir, id), age, age))
			}
		},
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := t.Context()
			store, stamp := open(t)
			put := func(session string, size int) string {
				id, err := store.Put(ctx, runtime.StoredResult{Session: session, Data: make([]byte, size)})
				require.NoError(t, err)
				stamp(id)
				return id
			}
			victim := put("victim", 64<<10)
			var last [2]string
			for i := range 40 {
				session := []string{"flood-a", "flood-b"}[i%2]
				last[i%2] = put(session, 1<<20-1<<10) // each within its share, headers and all
			}
			_, err := store.Read(ctx, "victim", victim, 0, 1)
			assert.NoError(t, err, "the victim's only result was evicted")
			for i, id := range last {
				_, err := store.Read(ctx, []string{"flood-a", "flood-b"}[i], id, 0, 1)
				assert.NoError(t, err, "each flooding session keeps its latest result")
			}
		})
	}
}

// Whatever sessions store, in whatever sizes, and whatever expires, the store's accounting
// (its total, each session's bytes, the order of the sessions holding the most) agrees with
// what it holds, and it never holds more than its bound.
func TestMemoryResultStoreAccounting(t *testing.T) {
	now := time.Now()
	m := &runtime.MemoryResultStore{MaxBytes: 10_000, MaxAge: time.Minute}
	runtime.SetResultClock(m, func() time.Time { return now })
	rnd := rand.New(rand.NewPCG(1, 2))
	var ids []struct{ session, id string }
	for i := range 3000 {
		session := fmt.Sprint("s", rnd.IntN(12))
		size := rnd.IntN(2500)
		if rnd.IntN(10) == 0 {
			size = rnd.IntN(9000)
		}
		id, err := m.Put(t.Context(), runtime.StoredResult{Session: session, Data: make([]byte, size)})
		require.NoError(t, err)
		ids = append(ids, struct{ session, id string }{session, id})
		now = now.Add(time.Duration(rnd.IntN(2000)) * time.Millisecond)
		require.NoError(t, runtime.ResultStoreInvariants(m), "after put %d", i)
	}
	var held int64
	for _, r := range ids {
		if p, err := m.Read(t.Context(), r.session, r.id, 0, 0); err == nil {
			held += p.Size
		}
	}
	assert.LessOrEqual(t, held, int64(10_000))
	assert.Positive(t, held)
}
