// Package buildtest gates the tests that run the go command to build, vet or load many
// packages: the generator's golden cases compiled and run, go generate and go build in
// scratch modules, the synthetic catalogs, the code blocks of the docs. Each costs seconds to
// minutes of a 2-core machine, and under load a go list or go build subprocess can outlast the
// test binary's timeout. So `go test ./...` skips them, and CI (and anyone changing the
// generator) runs them with TOOLGEN_BUILD_TESTS=1; the README says what that adds.
package buildtest

import (
	"os"
	"testing"
)

// Env is the variable that turns the gated tests on.
const Env = "TOOLGEN_BUILD_TESTS"

// Enabled reports whether the gated tests run.
func Enabled() bool { return os.Getenv(Env) != "" }

// Require skips t unless the gated tests run; why says what the test builds.
func Require(t testing.TB, why string) {
	t.Helper()
	if !Enabled() {
		t.Skipf("%s: set %s=1 to run it (CI does)", why, Env)
	}
}
