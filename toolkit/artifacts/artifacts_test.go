package artifacts_test

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/artifacts"
)

// stores runs a test against each Store.
func stores(t *testing.T, test func(t *testing.T, store artifacts.Store)) {
	t.Run("memory", func(t *testing.T) { test(t, &artifacts.MemoryStore{}) })
	t.Run("dir", func(t *testing.T) { test(t, artifacts.DirStore{Dir: filepath.Join(t.TempDir(), "store")}) })
}

type client struct {
	t       *testing.T
	reg     *runtime.Registry
	session string
}

func newClient(t *testing.T, k *artifacts.Toolkit) client {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(k.Tools()...))
	return client{t, reg, "s1"}
}

func (c client) call(name, args string) runtime.Result {
	c.t.Helper()
	return c.reg.Invoke(c.t.Context(), runtime.Call{Name: name, Args: []byte(args), Session: c.session})
}

func (c client) ok(name, args, want string) {
	c.t.Helper()
	res := c.call(name, args)
	require.False(c.t, res.IsError, res.Text)
	assert.Equal(c.t, want, res.Text)
}

func (c client) fails(name, args, want string) {
	c.t.Helper()
	res := c.call(name, args)
	require.True(c.t, res.IsError, res.Text)
	assert.Contains(c.t, res.Text, want)
}

func TestArtifactTools(t *testing.T) {
	stores(t, func(t *testing.T, store artifacts.Store) {
		c := newClient(t, &artifacts.Toolkit{Store: store})
		c.ok("create_artifact", `{"id":"report.md","content":"# Report\n\nNone yet.\n"}`, "Created artifact report.md (version 1, 20 bytes).")
		c.fails("create_artifact", `{"id":"report.md","content":"x"}`, "artifact report.md already exists")
		c.ok("update_artifact", `{"id":"report.md","old_text":"None yet.","new_text":"Two libraries."}`, "Updated artifact report.md to version 2.")
		c.ok("update_artifact", `{"id":"report.md","old_text":"#  Report\n Two","new_text":"# Findings\n\nTwo"}`,
			"Updated artifact report.md to version 3 (old_text matched ignoring whitespace).")
		c.ok("read_artifact", `{"id":"report.md"}`, "Artifact report.md, version 3 of 3:\n# Findings\n\nTwo libraries.\n")
		c.ok("read_artifact", `{"id":"report.md","version":1}`, "Artifact report.md, version 1 of 3:\n# Report\n\nNone yet.\n")
		c.fails("read_artifact", `{"id":"report.md","version":9}`, "artifact report.md has no version 9: its versions are 1 to 3")
		c.fails("update_artifact", `{"id":"report.md","old_text":"Three","new_text":"Four"}`, "old_text does not fit artifact report.md (version 3): old_text was not found")
		c.ok("rewrite_artifact", `{"id":"report.md","content":"a\na\n"}`, "Rewrote artifact report.md: version 4, 4 bytes.")
		c.fails("update_artifact", `{"id":"report.md","old_text":"a","new_text":"b"}`, "old_text matches 2 places (lines 1, 2)")
		c.ok("read_artifact", `{"id":"report.md"}`, "Artifact report.md, version 4 of 4:\na\na\n")

		c.fails("read_artifact", `{"id":"nope"}`, "no artifact nope: create it with create_artifact")
		c.fails("rewrite_artifact", `{"id":"nope","content":"x"}`, "no artifact nope")
		c.fails("update_artifact", `{"id":"nope","old_text":"x","new_text":"y"}`, "no artifact nope")
		c.fails("create_artifact", `{"id":"../etc/passwd","content":"x"}`, "/id: ")
		c.fails("read_artifact", `{"id":".."}`, "/id: ")

		// Another session sees none of it.
		other := c
		other.session = "s2"
		other.fails("read_artifact", `{"id":"report.md"}`, "no artifact report.md")
		other.ok("create_artifact", `{"id":"report.md","content":"mine"}`, "Created artifact report.md (version 1, 4 bytes).")
		c.ok("read_artifact", `{"id":"report.md","version":1}`, "Artifact report.md, version 1 of 4:\n# Report\n\nNone yet.\n")
	})
}

func TestArtifactLimits(t *testing.T) {
	stores(t, func(t *testing.T, store artifacts.Store) {
		c := newClient(t, &artifacts.Toolkit{Store: store, MaxBytes: 10, MaxVersions: 2})
		c.fails("create_artifact", `{"id":"a","content":"01234567890"}`, "artifact a would be 11 bytes, over the limit of 10")
		c.ok("create_artifact", `{"id":"a","content":"v1"}`, "Created artifact a (version 1, 2 bytes).")
		c.ok("rewrite_artifact", `{"id":"a","content":"v2"}`, "Rewrote artifact a: version 2, 2 bytes.")
		c.fails("rewrite_artifact", `{"id":"a","content":"v3"}`, "artifact a has 2 versions, the most allowed")

		one := newClient(t, &artifacts.Toolkit{Store: store, MaxVersions: 1})
		one.ok("create_artifact", `{"id":"b","content":"x"}`, "Created artifact b (version 1, 1 byte).")
		one.fails("rewrite_artifact", `{"id":"b","content":"y"}`, "artifact b has 1 version, the most allowed")
	})
}

func TestStoreRefusesBadIDs(t *testing.T) {
	stores(t, func(t *testing.T, store artifacts.Store) {
		for _, id := range []string{"", ".", "..", "../x", "a/b", "/etc/passwd", `a\b`, ".hidden", "x\x00"} {
			require.ErrorIs(t, store.Save(t.Context(), "s", id, 0, "x"), artifacts.ErrInvalidID, id)
			_, err := store.Load(t.Context(), "s", id, 0)
			require.ErrorIs(t, err, artifacts.ErrInvalidID, id)
		}
	})
}

// Concurrent updates of one artifact: each either makes the next version or is told to read
// again; no version is lost or written twice.
func TestConcurrentUpdates(t *testing.T) {
	stores(t, func(t *testing.T, store artifacts.Store) {
		ctx := t.Context()
		require.NoError(t, store.Save(ctx, "s", "a", 0, "v1"))
		var wg sync.WaitGroup
		var mu sync.Mutex
		won := 0
		for i := range 8 {
			wg.Go(func() {
				err := store.Save(ctx, "s", "a", 1, fmt.Sprint("writer ", i))
				if err == nil {
					mu.Lock()
					won++
					mu.Unlock()
					return
				}
				assert.ErrorIs(t, err, artifacts.ErrConflict)
			})
		}
		wg.Wait()
		assert.Equal(t, 1, won)
		a, err := store.Load(ctx, "s", "a", 0)
		require.NoError(t, err)
		assert.Equal(t, 2, a.Version)
		assert.Contains(t, a.Content, "writer ")
	})
}

// A symbolic link planted inside the store's directory does not lead the store out of it.
func TestDirStoreStaysInside(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	require.NoError(t, os.Mkdir(outside, 0o700))
	store := artifacts.DirStore{Dir: filepath.Join(base, "store")}
	ctx := context.Background()
	require.NoError(t, store.Save(ctx, "s", "a", 0, "v1"))

	// Swap the artifact's directory for a link to a directory outside the store.
	entries, err := os.ReadDir(store.Dir)
	require.NoError(t, err)
	require.Len(t, entries, 1)
	scopeDir := filepath.Join(store.Dir, entries[0].Name())
	require.NoError(t, os.Rename(filepath.Join(scopeDir, "a"), filepath.Join(base, "moved")))
	require.NoError(t, os.Symlink(outside, filepath.Join(scopeDir, "a")))

	err = store.Save(ctx, "s", "a", 0, "escaped")
	require.Error(t, err)
	_, err = store.Load(ctx, "s", "a", 0)
	require.Error(t, err)
	left, err := os.ReadDir(outside)
	require.NoError(t, err)
	assert.Empty(t, left, "nothing written outside the store")
}

// A store failure reaches the model without its text, which may hold host paths.
func TestStoreFailureHidesItsText(t *testing.T) {
	file := filepath.Join(t.TempDir(), "file")
	require.NoError(t, os.WriteFile(file, nil, 0o600))
	c := newClient(t, &artifacts.Toolkit{Store: artifacts.DirStore{Dir: filepath.Join(file, "store")}})
	res := c.call("create_artifact", `{"id":"a","content":"x"}`)
	require.True(t, res.IsError)
	assert.Equal(t, "the artifact store failed; try again later", res.Text)
	var me *runtime.ModelError
	require.ErrorAs(t, res.Err, &me)
	assert.Contains(t, me.Err.Error(), file, "the operator gets the cause")
}

// Several edits of one artifact in one turn apply in order.
func TestEditsOfOneTurnApplyInOrder(t *testing.T) {
	c := newClient(t, &artifacts.Toolkit{})
	c.ok("create_artifact", `{"id":"a","content":"one"}`, "Created artifact a (version 1, 3 bytes).")
	results := c.reg.InvokeAll(t.Context(), []runtime.Call{
		{Name: "update_artifact", Session: c.session, Args: []byte(`{"id":"a","old_text":"one","new_text":"one two"}`)},
		{Name: "update_artifact", Session: c.session, Args: []byte(`{"id":"a","old_text":"two","new_text":"two three"}`)},
		{Name: "rewrite_artifact", Session: c.session, Args: []byte(`{"id":"b","content":"x"}`)},
	})
	assert.False(t, results[0].IsError, results[0].Text)
	assert.False(t, results[1].IsError, results[1].Text)
	assert.True(t, results[2].IsError, "b does not exist")
	c.ok("read_artifact", `{"id":"a"}`, "Artifact a, version 3 of 3:\none two three")
}

// Both stores bound the bytes of every session together: sessions that create artifact after
// artifact cannot grow memory or the disk past MaxBytes, and the model is told the store is
// full without a host path.
func TestStoresAreBoundedAcrossSessions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "store")
	for name, store := range map[string]artifacts.Store{
		// Five versions of 19 bytes fit, a sixth of 25 does not: in memory each counts 256
		// bytes more, on disk its file and two directories count 4 KiB each.
		"memory": &artifacts.MemoryStore{MaxBytes: 5*(19+256) + 100},
		"dir":    artifacts.DirStore{Dir: dir, MaxBytes: 5*3*4096 + 100},
	} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			for i := range 5 {
				require.NoError(t, store.Save(ctx, fmt.Sprint("session", i), "a.txt", 0, "0123456789012345678"), "save %d", i)
			}
			err := store.Save(ctx, "session9", "a.txt", 0, "0123456789012345678012345")
			require.ErrorIs(t, err, artifacts.ErrStoreFull)
			c := newClient(t, &artifacts.Toolkit{Store: store})
			res := c.call("create_artifact", `{"id":"b.md","content":"more than the store has room for"}`)
			require.True(t, res.IsError)
			assert.NotContains(t, res.Text, dir)
		})
	}
}

// Empty versions count too: sessions creating empty artifact after artifact fill the store
// instead of growing memory, or files and directories on disk, without bound.
func TestEmptyArtifactsFillTheStore(t *testing.T) {
	for name, store := range map[string]artifacts.Store{
		"memory": &artifacts.MemoryStore{MaxBytes: 64 << 10},
		"dir":    artifacts.DirStore{Dir: filepath.Join(t.TempDir(), "store"), MaxBytes: 64 << 10},
	} {
		t.Run(name, func(t *testing.T) {
			var err error
			for i := 0; i < 1000 && err == nil; i++ {
				err = store.Save(context.Background(), fmt.Sprint("session", i), "empty.txt", 0, "")
			}
			require.ErrorIs(t, err, artifacts.ErrStoreFull)
		})
	}
}

// One session creating artifact after artifact fills only its share of the store: its own
// saves then fail with a message that says so, and other sessions still create theirs.
// Before, it filled the whole store and every other session's create_artifact failed.
func TestOneSessionCannotFillTheStore(t *testing.T) {
	stores(t, func(t *testing.T, _ artifacts.Store) {
		var store artifacts.Store = &artifacts.MemoryStore{MaxBytes: 1 << 20}
		if strings.HasSuffix(t.Name(), "dir") {
			store = artifacts.DirStore{Dir: filepath.Join(t.TempDir(), "store"), MaxBytes: 1 << 20}
		}
		greedy := newClient(t, &artifacts.Toolkit{Store: store})
		greedy.session = "greedy"
		content := strings.Repeat("x", 8<<10)
		var res runtime.Result
		created := 0
		for i := range 1000 {
			res = greedy.call("create_artifact", fmt.Sprintf(`{"id":"a%d","content":%q}`, i, content))
			if res.IsError {
				break
			}
			created++
		}
		require.True(t, res.IsError, "a session's saves stop at its share")
		assert.Less(t, created, 1<<20/4/(8<<10), "within a quarter of the store")
		assert.ErrorIs(t, res.Err, artifacts.ErrSessionFull)
		assert.Equal(t, runtime.KindLimit, res.Kind)
		assert.Contains(t, res.Text, "this session's artifacts fill its share of the store")

		other := greedy
		other.session = "other"
		other.ok("create_artifact", fmt.Sprintf(`{"id":"a0","content":%q}`, content), "Created artifact a0 (version 1, 8192 bytes).")
	})
}

// Artifacts expire MaxAge after their latest version: a store that sessions filled has room
// again, and an expired artifact is gone. Before, nothing expired and a full store stayed
// full for the life of the process.
func TestArtifactsExpire(t *testing.T) {
	ctx := context.Background()
	big := strings.Repeat("x", 8<<10)
	fill := func(t *testing.T, store artifacts.Store) {
		for s := range 10 {
			for i := range 100 {
				err := store.Save(ctx, fmt.Sprint("s", s), fmt.Sprint("a", i), 0, big)
				if errors.Is(err, artifacts.ErrSessionFull) {
					break
				}
				if errors.Is(err, artifacts.ErrStoreFull) {
					return
				}
				require.NoError(t, err)
			}
		}
		t.Fatal("the store never filled")
	}
	t.Run("memory", func(t *testing.T) {
		now := time.Now()
		store := &artifacts.MemoryStore{MaxBytes: 1 << 20}
		artifacts.SetClock(store, func() time.Time { return now })
		require.NoError(t, store.Save(ctx, "keeper", "a0", 0, "v1"))
		fill(t, store)
		require.ErrorIs(t, store.Save(ctx, "late", "a", 0, big), artifacts.ErrStoreFull)
		now = now.Add(artifacts.DefaultMaxAge - time.Minute)
		require.NoError(t, store.Save(ctx, "keeper", "a0", 1, "fresh"), "a new version renews an artifact")
		now = now.Add(2 * time.Minute)
		require.NoError(t, store.Save(ctx, "late", "a", 0, big), "the expired artifacts made room")
		_, err := store.Load(ctx, "s1", "a0", 0)
		assert.ErrorIs(t, err, artifacts.ErrNotFound, "an expired artifact is gone")
		a, err := store.Load(ctx, "keeper", "a0", 0)
		require.NoError(t, err)
		assert.Equal(t, "fresh", a.Content)
	})
	t.Run("dir", func(t *testing.T) {
		store := artifacts.DirStore{Dir: filepath.Join(t.TempDir(), "store"), MaxBytes: 1 << 20}
		require.NoError(t, store.Save(ctx, "keeper", "a0", 0, "v1"))
		require.NoError(t, store.Save(ctx, "keeper", "a0", 1, "fresh"))
		fill(t, store)
		require.ErrorIs(t, store.Save(ctx, "late", "a", 0, big), artifacts.ErrStoreFull)
		// Every file but those of keeper's a0 was written a day ago.
		sum := sha256.Sum256([]byte("keeper"))
		renewed := filepath.Join(store.Dir, hex.EncodeToString(sum[:16]), "a0")
		old := time.Now().Add(-artifacts.DefaultMaxAge - time.Minute)
		require.NoError(t, filepath.Walk(store.Dir, func(p string, _ os.FileInfo, err error) error {
			if err == nil && p != store.Dir && !strings.HasPrefix(p, renewed) {
				err = os.Chtimes(p, old, old)
			}
			return err
		}))
		_, err := store.Load(ctx, "s1", "a0", 0)
		assert.ErrorIs(t, err, artifacts.ErrNotFound, "an expired artifact is not seen")
		require.NoError(t, store.Save(ctx, "late", "a", 0, big), "the expired artifacts made room")
		a, err := store.Load(ctx, "keeper", "a0", 0)
		require.NoError(t, err)
		assert.Equal(t, "fresh", a.Content)
		scopes, err := os.ReadDir(store.Dir)
		require.NoError(t, err)
		var kept int
		for _, s := range scopes {
			artifacts, err := os.ReadDir(filepath.Join(store.Dir, s.Name()))
			require.NoError(t, err)
			kept += len(artifacts)
		}
		assert.Equal(t, 2, kept, "the expired artifacts were removed from the disk")
	})
}
