package runtime_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/internal/oncetest"
)

func TestMemoryStoreRunsKeyedCallsOnce(t *testing.T) {
	oncetest.Run(t, func(*testing.T) runtime.IdempotencyStore { return &runtime.MemoryStore{} })
}
