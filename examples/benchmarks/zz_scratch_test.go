package benchmarks

import (
	"os"
	"strconv"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestZZScratch(t *testing.T) {
	path := os.Getenv("ZZ_PATH")
	if path == "" {
		t.Skip()
	}
	n, _ := strconv.Atoi(os.Getenv("ZZ_N"))
	var op func()
	switch path {
	case "timed":
		op = invokeCase{opts: func() []runtime.Option { return nil }}.invoker(t)
	case "untimed":
		op = invokeCase{noTimeout: true, opts: func() []runtime.Option { return nil }}.invoker(t)
	case "floor":
		var stop func()
		op, stop = bareOnGoroutine(t)
		defer stop()
	case "bare":
		op = bareCall(t)
	case "json":
		op = unmarshalSmall(t)
	}
	for range n {
		op()
	}
}
