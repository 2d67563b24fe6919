package decode

import "testing"

var sinkPointer string

// TestPathKeysStayOnTheStack: generated code builds a path per property from a key it
// converts from the decoder's bytes; that string must stay on the stack, so writing a path
// (only when a problem is recorded) must not make its key escape.
func TestPathKeysStayOnTheStack(t *testing.T) {
	key := []byte("a/b~c")
	n := testing.AllocsPerRun(100, func() {
		k := string(key)
		q := (*Path)(nil).Key(k)
		if len(k) > 100 {
			sinkPointer = q.String()
		}
	})
	if n != 0 {
		t.Errorf("a path's key escapes: %v allocations", n)
	}
	q := (*Path)(nil).Key("a/b~c")
	if got := q.Index(2); got.String() != "/a~1b~0c/2" {
		t.Errorf("path %q", got.String())
	}
}
