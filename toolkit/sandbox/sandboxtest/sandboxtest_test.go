package sandboxtest_test

import (
	"runtime"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/sandbox/sandboxtest"
)

func TestMemoryKeepsTheContract(t *testing.T) {
	sandboxtest.Run(t, func(t *testing.T) sandbox.Sandbox { return sandbox.NewMemory(nil) })
}

func TestLocalKeepsTheContract(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("commands run isolated on Linux only")
	}
	sandboxtest.Run(t, func(t *testing.T) sandbox.Sandbox {
		l, err := sandbox.OpenLocal(t.TempDir(), sandbox.LocalOptions{})
		require.NoError(t, err)
		t.Cleanup(func() { l.Close() })
		return l
	})
}
