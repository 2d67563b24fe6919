package emit

import (
	"reflect"
	"runtime"
	"slices"
	"testing"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/runtime/decode"
)

// The formats a tag may name (annotations), the checkers the decoder has (runtime/decode) and
// the checker names the emitter writes must be one set: a format missing from any of them
// would be accepted by the parser and then fail to generate or to build.
func TestFormatTablesAgree(t *testing.T) {
	registry := slices.Sorted(slices.Values(annotations.Formats))
	if got := decode.FormatNames(); !slices.Equal(got, registry) {
		t.Errorf("runtime/decode supports %v, the annotations registry lists %v", got, registry)
	}
	for _, name := range annotations.Formats {
		fn, describe, ok := formatFunc(name)
		if !ok || fn == "" || describe == "" {
			t.Errorf("format %q has no checker in the emitter's table", name)
			continue
		}
		// The name generated code calls is the function the registry checks with.
		check, _, _ := decode.FormatFunc(name)
		if got := runtime.FuncForPC(reflect.ValueOf(check).Pointer()).Name(); got != decodePath+"."+fn {
			t.Errorf("format %q: generated code calls decode.%s, the registry checks with %s", name, fn, got)
		}
	}
}
