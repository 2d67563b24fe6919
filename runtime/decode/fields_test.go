package decode

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// newIndex is a Fields with its lookup built but not registered: tests make many.
func newIndex(names []string) *Fields {
	f := &Fields{names: names}
	f.buildIndex()
	return f
}

// wordNames returns n property names as structs have them: words of several lengths, some
// sharing prefixes and suffixes.
func wordNames(n int) []string {
	words := []string{"id", "name", "city", "unit", "days", "query", "limit", "offset", "sort", "order",
		"created_at", "updated_at", "owner", "owner_id", "tags", "labels", "status", "priority", "due", "title"}
	var out []string
	for i := 0; len(out) < n; i++ {
		w := words[i%len(words)]
		if round := i / len(words); round > 0 {
			w = fmt.Sprintf("%s_%d", w, round)
		}
		out = append(out, w)
	}
	return out
}

// nearMisses returns keys that are not name but share with it what the hash reads: its
// length, first, middle or last byte.
func nearMisses(name string) []string {
	out := []string{name + "x", "x" + name, strings.ToUpper(name)}
	if n := len(name); n > 0 {
		out = append(out, name[:n-1])
		b := []byte(name)
		for _, i := range []int{0, n / 2, n - 1, (n - 1) / 2, 1 % n} {
			c := append([]byte(nil), b...)
			c[i] ^= 0x20
			out = append(out, string(c))
		}
	}
	return out
}

func TestFieldsIndexFindsEveryName(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 8, 20, 64, 65, 300} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			names := wordNames(n)
			f := newIndex(names)
			known := map[string]bool{}
			for i, name := range names {
				known[name] = true
				assert.Equal(t, i, f.index([]byte(name)), "%q", name)
			}
			for _, key := range []string{"", "x", "nam", "names", "Name", "created_a", "zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz"} {
				if !known[key] {
					assert.Equal(t, -1, f.index([]byte(key)), "%q", key)
				}
			}
			for _, name := range names {
				for _, key := range nearMisses(name) {
					if !known[key] {
						assert.Equal(t, -1, f.index([]byte(key)), "%q near %q", key, name)
					}
				}
			}
		})
	}
}

// The names of a usual struct are told apart by the perfect hash, without the map. (Past
// about 30 names the search for a multiplier often fails, and the map takes over.)
func TestFieldsIndexIsAPerfectHashForUsualNames(t *testing.T) {
	for _, names := range [][]string{
		{"city", "unit", "days"},
		{"id", "name", "owner", "owner_id", "created_at", "updated_at"},
		wordNames(12),
		wordNames(20),
	} {
		f := newIndex(names)
		assert.Nil(t, f.byName, "%q", names)
		assert.LessOrEqual(t, len(f.slots), 8*len(names), "%q", names)
	}
}

// Two names of one length with the same first, middle and last bytes have the same hash: no
// multiplier separates them, and the lookup goes to the map, which finds them all the same.
func TestFieldsIndexFallsBackToTheMap(t *testing.T) {
	names := []string{"city", "abXcd", "aeXfd", "unit"} // 'a', 'X', 'd' at 0, 5/2 and 4
	require.Equal(t, nameHash([]byte("abXcd")), nameHash([]byte("aeXfd")))
	f := newIndex(names)
	require.NotNil(t, f.byName, "colliding names cannot have a perfect hash")
	for i, name := range names {
		assert.Equal(t, i, f.index([]byte(name)), "%q", name)
	}
	for _, key := range []string{"", "agXhd", "abXce", "abXc", "City", "units"} {
		assert.Equal(t, -1, f.index([]byte(key)), "%q", key)
	}

	// Many names whose digits are in the bytes the hash does not read ("p100", "p200"): the
	// map again.
	var many []string
	for i := range 300 {
		many = append(many, fmt.Sprintf("p%d", i))
	}
	f = newIndex(many)
	for i, name := range many {
		assert.Equal(t, i, f.index([]byte(name)), "%q", name)
	}
	for _, key := range []string{"p300", "p-1", "p", "q1", "p01"} {
		assert.Equal(t, -1, f.index([]byte(key)), "%q", key)
	}
}

// A name repeated in the list (which generated code never declares) is found at its first
// place, by the map or the hash alike.
func TestFieldsIndexRepeatedName(t *testing.T) {
	f := newIndex([]string{"a", "b", "a"})
	assert.Equal(t, 0, f.index([]byte("a")))
	assert.Equal(t, 1, f.index([]byte("b")))
}

// FuzzFieldsIndex holds the lookup to a map: every name is found at its first index, any
// other key is not. The names are the input split at commas.
func FuzzFieldsIndex(f *testing.F) {
	f.Add("city,unit,days", "city")
	f.Add("city,unit,days", "cuty")
	f.Add("abXcd,aeXfd", "agXhd")
	f.Add(",a,", "")
	f.Add("p1,p2,p10,p20,p100,p200", "p300")
	f.Add(strings.Join(wordNames(70), ","), "owner_id_3")
	f.Fuzz(func(t *testing.T, list, key string) {
		names := strings.Split(list, ",")
		if len(names) > 1000 {
			return
		}
		want := map[string]int{}
		for i, name := range names {
			if _, ok := want[name]; !ok {
				want[name] = i
			}
		}
		idx := newIndex(names)
		for name, i := range want {
			if got := idx.index([]byte(name)); got != i {
				t.Fatalf("index(%q) = %d, want %d in %q", name, got, i, names)
			}
		}
		wantKey, ok := want[key]
		if !ok {
			wantKey = -1
		}
		if got := idx.index([]byte(key)); got != wantKey {
			t.Fatalf("index(%q) = %d, want %d in %q", key, got, wantKey, names)
		}
	})
}

// Keys are slices of the document: the bytes after a key belong to the document, and a short
// name compared as one word must not see them.
func TestFieldsIndexKeysInsideADocument(t *testing.T) {
	names := []string{"", "a", "city", "12345678", "123456789", "unit"}
	f := newIndex(names)
	for i, name := range names {
		for _, tail := range []string{"", `"`, `":1}`, "\x00\x00\x00\x00\x00\x00\x00\x00", "xxxxxxxxxxxxxxxx"} {
			doc := []byte(name + tail)
			key := doc[:len(name)]
			assert.Equal(t, i, f.index(key), "%q in %q", name, doc)
		}
	}
	for _, c := range []struct{ doc, key string }{
		{"cityx", "cit"}, {"citx", "citx"}, {"1234567", "1234567"}, {"123456780", "12345678"[:7]}, {"ab", "b"},
	} {
		doc := []byte(c.doc + "--------")
		i := strings.Index(string(doc), c.key)
		require.GreaterOrEqual(t, i, 0)
		assert.Equal(t, -1, f.index(doc[i:i+len(c.key)]), "%q in %q", c.key, c.doc)
	}
}
