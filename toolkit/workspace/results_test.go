package workspace_test

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

var keptAs = regexp.MustCompile(`kept as "(res_[0-9a-f]+)".*\{"id":"res_[0-9a-f]+","offset":(\d+)\}`)

// TestOutputCapAndReadResult: a long shell output is cut to the tool's cap, the model is told
// an id (never a path), and read_result pages through the whole output, in whole characters,
// for the session that produced it only.
func TestOutputCapAndReadResult(t *testing.T) {
	// 60,000 lines of "é…": two-byte characters, so pages fall inside them.
	var want strings.Builder
	for i := range 60000 {
		fmt.Fprintf(&want, "%05d ééé\n", i)
	}
	sb := sandbox.NewMemory(nil)
	sb.RunFunc = func(_ context.Context, cmd sandbox.Command) (int, error) {
		_, err := cmd.Output.Write([]byte(want.String()))
		return 0, err
	}
	h := newHarness(t, sb, "")
	call := func(session, tool, args string) runtime.Result {
		return h.reg.Invoke(t.Context(), runtime.Call{ID: "c", Session: session, Name: tool, Args: []byte(args)})
	}
	res := call("alice", "shell", `{"command":"cat big"}`)
	require.False(t, res.IsError, res.Text)
	assert.LessOrEqual(t, len(res.Text), 32<<10)
	m := keptAs.FindStringSubmatch(res.Text)
	require.NotNil(t, m, res.Text[len(res.Text)-300:])
	id, offset := m[1], m[2]
	status, _, _ := strings.Cut(res.Text, "\n")
	full := status + "\n" + want.String()
	require.Equal(t, res.Offloaded.Size, len(full))

	// Page through from where the preview stopped; the pages join up to the whole output.
	got := res.Text[:res.Offloaded.Shown]
	pages := 0
	for {
		page := call("alice", "read_result", `{"id":"`+id+`","offset":`+offset+`}`)
		require.False(t, page.IsError, page.Text)
		body, footer, ok := cutFooter(page.Text)
		require.True(t, ok, page.Text)
		got += body
		pages++
		next := regexp.MustCompile(`offset=(\d+) reads on\]$`).FindStringSubmatch(footer)
		if next == nil {
			assert.Regexp(t, `^\[res_[0-9a-f]+ \(from shell\): bytes \d+-\d+ of \d+\]$`, footer)
			break
		}
		offset = next[1]
	}
	assert.Equal(t, full, got)
	assert.Greater(t, pages, 30)

	// An offset inside a character starts at the next whole one, and a limit inside one
	// stops before it.
	at := strings.Index(full, "é")
	page := call("alice", "read_result", fmt.Sprintf(`{"id":%q,"offset":%d,"limit":3}`, id, at+1))
	assert.Equal(t, fmt.Sprintf("é\n[%s (from shell): bytes %d-%d of %d; read_result with offset=%d reads on]", id, at+2, at+4, len(full), at+4), page.Text)

	// Another conversation cannot read it; nor can anyone read an id that does not exist.
	for _, c := range []struct{ session, id string }{{"bob", id}, {"alice", "res_000000000000000000000000"}} {
		res := call(c.session, "read_result", `{"id":"`+c.id+`"}`)
		assert.Equal(t, runtime.KindNotFound, res.Kind, res.Text)
		assert.Contains(t, res.Text, "no kept result")
	}
	res = call("alice", "read_result", `{"id":"`+id+`","offset":99999999}`)
	assert.Equal(t, runtime.KindInvalidInput, res.Kind, res.Text)
}

// cutFooter splits a read_result text into the page and its last line.
func cutFooter(text string) (body, footer string, ok bool) {
	i := strings.LastIndex(text, "\n[")
	if i < 0 {
		return "", "", false
	}
	return text[:i], text[i+1:], true
}

// TestShellOutputBounded: a command writing far more than the shell keeps in memory gives the
// first and last 4 MiB and the count of the bytes left out.
func TestShellOutputBounded(t *testing.T) {
	sb := sandbox.NewMemory(nil)
	chunk := []byte(strings.Repeat("a", 1<<20))
	sb.RunFunc = func(_ context.Context, cmd sandbox.Command) (int, error) {
		cmd.Output.Write([]byte("START\n"))
		for range 20 {
			cmd.Output.Write(chunk)
		}
		cmd.Output.Write([]byte("\nEND\n"))
		return 0, nil
	}
	h := newHarness(t, sb, "", runtime.WithResultStore(&runtime.MemoryResultStore{}))
	res := h.call("shell", `{"command":"yes"}`)
	require.NotNil(t, res.Offloaded)
	page, err := h.reg.ResultStore().Read(t.Context(), "", res.Offloaded.ID, 0, 64<<20)
	require.NoError(t, err)
	text := string(page.Data)
	status, text, _ := strings.Cut(text, "\n")
	assert.Regexp(t, `^exit status 0 \([0-9.]+(ms|s|m[0-9.]+s)\)$`, status, "a duration as time.Duration prints it, 1.2s on a loaded machine")
	written := len("START\n") + 20*len(chunk) + len("\nEND\n")
	gap := fmt.Sprintf("\n[… %d bytes of output left out …]\n", written-8<<20)
	assert.Equal(t, 8<<20+len(gap), len(text))
	assert.True(t, strings.HasPrefix(text, "START\naaa"))
	assert.True(t, strings.HasSuffix(text, "aaa\nEND\n"))
	assert.True(t, strings.Contains(text, "aaa"+gap+"aaa"), "no %q in the middle", gap)
}

// brokenStore is a result store whose errors name a host directory.
type brokenStore struct{ runtime.MemoryResultStore }

func (*brokenStore) Read(context.Context, string, string, int64, int64) (runtime.ResultPage, error) {
	return runtime.ResultPage{}, fmt.Errorf("open /srv/secret-results/res_x: permission denied")
}

func TestReadResultHidesTheStoresError(t *testing.T) {
	reg := runtime.NewRegistry(runtime.WithResultStore(&brokenStore{}))
	require.NoError(t, reg.Add(workspace.New(sandbox.NewMemory(nil)).Tools()...))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "read_result", Args: []byte(`{"id":"res_0123456789abcdef01234567"}`)})
	require.True(t, res.IsError)
	assert.NotContains(t, res.Text, "/srv/secret-results")
	assert.Contains(t, res.Text, "the result store failed")
	var me *runtime.ModelError
	require.ErrorAs(t, res.Err, &me)
	assert.ErrorContains(t, me.Err, "/srv/secret-results", "the operator keeps the cause")
}
