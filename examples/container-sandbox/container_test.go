package container_test

import (
	"os"
	"os/exec"
	"path/filepath"
	goruntime "runtime"
	"testing"

	"github.com/stretchr/testify/require"

	container "github.com/toolgen-go/toolgen/examples/container-sandbox"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/sandbox/sandboxtest"
)

// fakeCLI stands in for docker where none is installed: "run" runs the script on the host,
// in the mounted directory, in a session of its own; "rm --force" kills that session, as
// removing a container kills its processes. It checks the arguments Run builds, not the
// container's isolation, which is the container runtime's.
const fakeCLI = `#!/bin/sh
if [ "$1" = rm ]; then kill -9 -"$(cat "$FAKE_STATE/$3.pid")" 2>/dev/null; exit 0; fi
shift
while [ $# -gt 0 ]; do
	case "$1" in
	--name=*) name=${1#--name=}; shift ;;
	-v) host=${2%%:*}; shift 2 ;;
	-w) work=$2; shift 2 ;;
	-*) shift ;;
	*) break ;;
	esac
done
shift # the image
mkdir -p "$host${work#/workspace}" && cd "$host${work#/workspace}" || exit 125
echo $$ > "$FAKE_STATE/$name.pid"
exec setsid "$@"
`

func TestKeepsTheContractWithAFakeCLI(t *testing.T) {
	if goruntime.GOOS != "linux" {
		t.Skip("the fake needs setsid(1)")
	}
	bin := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(bin, "docker"), []byte(fakeCLI), 0o755))
	t.Setenv("FAKE_STATE", t.TempDir())
	sandboxtest.Run(t, func(t *testing.T) sandbox.Sandbox {
		s, err := container.Open(t.TempDir(), filepath.Join(bin, "docker"), "alpine")
		require.NoError(t, err)
		return s
	})
}

// With TOOLGEN_CONTAINER_IMAGE naming an image the machine has (docker.io/library/alpine:3.22),
// the same tests run in real containers, with docker or else podman.
func TestKeepsTheContractInRealContainers(t *testing.T) {
	image := os.Getenv("TOOLGEN_CONTAINER_IMAGE")
	cli, err := exec.LookPath("docker")
	if err != nil {
		cli, err = exec.LookPath("podman")
	}
	if image == "" || err != nil {
		t.Skip("needs docker or podman, and TOOLGEN_CONTAINER_IMAGE naming an image it has")
	}
	sandboxtest.Run(t, func(t *testing.T) sandbox.Sandbox {
		s, err := container.Open(t.TempDir(), cli, image)
		require.NoError(t, err)
		return s
	})
}
