package synthcatalog

import (
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"
)

// Cost is what a synthetic catalog of N tools costs: toolgen's time, the generated Go, the
// build with and without it, and what it adds to a binary.
type Cost struct {
	Tools          int
	Toolgen        time.Duration // one run of toolgen over the package
	GeneratedBytes int64
	GeneratedLines int
	SourceBytes    int64         // the handwritten package
	BuildWith      time.Duration // go build of the package, generated code included
	BuildWithout   time.Duration // the same with -tags toolgen: the handwritten code alone
	BinaryGrowth   int64         // bytes cmd/with adds over cmd/without built without the generated file
}

// Measure writes a catalog of n tools into dir (distinct: no property shared between tools,
// see Write) and measures it, running the toolgen binary at toolgen. Builds are timed with the dependencies cached: only the catalog package (and the
// programs) compile, as in a developer's edit-build loop.
func Measure(dir, repoRoot, toolgen string, n int, distinct bool) (Cost, error) {
	c := Cost{Tools: n}
	if err := Write(dir, repoRoot, n, distinct); err != nil {
		return c, err
	}
	pkg := filepath.Join(dir, "catalog")
	run := func(env []string, name string, args ...string) (time.Duration, error) {
		cmd := exec.Command(name, args...)
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), env...)
		start := time.Now()
		out, err := cmd.CombinedOutput()
		if err != nil {
			return 0, fmt.Errorf("%s %s: %v\n%s", name, strings.Join(args, " "), err, out)
		}
		return time.Since(start), nil
	}
	// Warm the cache with the dependencies, so the timed builds compile only the catalog.
	if _, err := run(nil, "go", "build", "-tags", "toolgen", "./catalog"); err != nil {
		return c, err
	}
	d, err := run(nil, toolgen, "./catalog")
	if err != nil {
		return c, err
	}
	c.Toolgen = d
	gen, err := os.ReadFile(filepath.Join(pkg, "tools_gen.go"))
	if err != nil {
		return c, err
	}
	c.GeneratedBytes, c.GeneratedLines = int64(len(gen)), strings.Count(string(gen), "\n")
	for _, f := range []string{"shared.go", "tools.go"} {
		info, err := os.Stat(filepath.Join(pkg, f))
		if err != nil {
			return c, err
		}
		c.SourceBytes += info.Size()
	}
	if _, err := run(nil, "go", "mod", "tidy"); err != nil { // what the generated code imports
		return c, err
	}
	if _, err := run(nil, "go", "build", "./catalog"); err != nil { // runtime deps of the generated code
		return c, err
	}
	build := func(tags ...string) (time.Duration, error) {
		if err := touch(pkg); err != nil {
			return 0, err
		}
		return run(nil, "go", append(append([]string{"build"}, tags...), "./catalog")...)
	}
	if c.BuildWith, err = build(); err != nil {
		return c, err
	}
	if c.BuildWithout, err = build("-tags", "toolgen"); err != nil {
		return c, err
	}
	with, without := filepath.Join(dir, "with.bin"), filepath.Join(dir, "without.bin")
	if _, err := run(nil, "go", "build", "-o", with, "./cmd/with"); err != nil {
		return c, err
	}
	// Without the generated file (-tags toolgen), not merely without calling it: data that
	// generated init code refers to would stay in the binary and hide its cost.
	if _, err := run(nil, "go", "build", "-tags", "toolgen", "-o", without, "./cmd/without"); err != nil {
		return c, err
	}
	a, err := os.Stat(with)
	if err != nil {
		return c, err
	}
	b, err := os.Stat(without)
	if err != nil {
		return c, err
	}
	c.BinaryGrowth = a.Size() - b.Size()
	return c, nil
}

// touch gives the package a new nonce, so the next build compiles it again while its
// dependencies stay cached.
func touch(pkg string) error {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return os.WriteFile(filepath.Join(pkg, "nonce.go"), []byte("package catalog\n\nconst nonce = \""+hex.EncodeToString(b[:])+"\"\n"), 0o644)
}
