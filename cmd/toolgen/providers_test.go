package main

import (
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"os"
	"path/filepath"
	"strings"
	"testing"
)

// mapHandler has a map argument, which OpenAI strict mode and Gemini parameters cannot take.
var mapHandler = `package m

import "context"

// LabelArgs are the arguments of label.
type LabelArgs struct {
	// Labels to set.
	Labels map[string]string ` + "`json:\"labels\"`" + `
	// Resource name.
	Name string ` + "`json:\"name\" tool:\"minLength=1\"`" + `
}

// Label sets labels.
//
//tool:timeout 2s
func Label(ctx context.Context, args LabelArgs) (string, error) { return "", nil }
`

func TestProvidersFlag(t *testing.T) {
	dir := newModule(t, map[string]string{"echo.go": handler, "label.go": mapHandler})
	gen := filepath.Join(dir, "tools_gen.go")

	code, _, stderr := toolgen(t)
	if code != exitOK {
		t.Fatalf("generate: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"label.go:8:2: warning: tool label: OpenAI strict mode is impossible: property /labels is a map",
		"label.go:8:2: warning: tool label: Gemini parameters cannot describe a map",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	all := string(must(os.ReadFile(gen)))
	for _, want := range []string{"toolimpl.VariantOpenAI", "toolimpl.VariantAnthropic", "toolimpl.VariantGeminiParameters"} {
		if !strings.Contains(all, want) {
			t.Errorf("default run: generated file lacks %s", want)
		}
	}

	code, _, stderr = toolgen(t, "-providers", "anthropic,mcp")
	if code != exitOK || strings.Contains(stderr, "warning") {
		t.Fatalf("-providers anthropic,mcp: exit %d, stderr %q; want no provider warning", code, stderr)
	}
	some := string(must(os.ReadFile(gen)))
	if !strings.Contains(some, "toolimpl.VariantAnthropic") || strings.Contains(some, "VariantOpenAI") || strings.Contains(some, "VariantGemini") {
		t.Errorf("-providers anthropic,mcp emitted other variants:\n%s", some)
	}

	if code, _, stderr := toolgen(t, "-providers", "openai,gemni"); code != exitUsage || !strings.Contains(stderr, `did you mean "gemini"?`) {
		t.Errorf("-providers gemni: exit %d, stderr %q; want exit 2 with a suggestion", code, stderr)
	}
}

func TestExplainFlag(t *testing.T) {
	newModule(t, map[string]string{"echo.go": handler, "label.go": mapHandler})

	code, stdout, stderr := toolgen(t, "-explain", "echo", "-provider", "openai")
	if code != exitOK {
		t.Fatalf("-explain echo: exit %d, stderr %q", code, stderr)
	}
	for _, want := range []string{
		"== tool echo, provider openai ==\nvariant openai (strict: true):\n{\n",
		`"description": "Text to echo back. (at least 1 char)"`,
		"moved into the description (the decoder still enforces them):\n\techo.go:10:2: /properties/text/minLength\n",
	} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-explain output lacks %q:\n%s", want, stdout)
		}
	}
	if strings.Contains(stdout, "provider gemini") {
		t.Errorf("-provider openai explained other providers:\n%s", stdout)
	}
	if _, err := os.Stat("tools_gen.go"); err == nil {
		t.Error("-explain wrote the generated file")
	}

	code, stdout, _ = toolgen(t, "-explain", "label")
	if code != exitOK {
		t.Fatalf("-explain label: exit %d", code)
	}
	for _, want := range []string{"variant openai (strict: false)", "label.go:8:2: warning: OpenAI strict mode is impossible",
		"variant anthropic_strict: none", "== tool label, provider gemini ==", "== tool label, provider mcp =="} {
		if !strings.Contains(stdout, want) {
			t.Errorf("-explain label lacks %q", want)
		}
	}

	if code, _, stderr := toolgen(t, "-explain", "ecko"); code != exitUser || !strings.Contains(stderr, `no tool named "ecko"; did you mean "echo"?`) {
		t.Errorf("-explain ecko: exit %d, stderr %q", code, stderr)
	}
	if code, _, _ := toolgen(t, "-explain", "echo", "-provider", "openai,gemini"); code != exitUsage {
		t.Errorf("-provider with two providers: exit %d, want 2", code)
	}
	if code, _, _ := toolgen(t, "-provider", "openai"); code != exitUsage {
		t.Errorf("-provider without -explain: exit %d, want 2", code)
	}
}

func TestReportFlag(t *testing.T) {
	newModule(t, map[string]string{"echo.go": handler})
	code, stdout, stderr := toolgen(t, "-report", "-providers", "openai,anthropic")
	require.Equal(t, exitOK, code, stderr)
	assert.Regexp(t, `echo +\d+ +\d+ +\d+ +\d+`, stdout)
	assert.Contains(t, stdout, "openai bytes")
	assert.NotContains(t, stdout, "gemini", "-providers limits the columns")
	_, err := os.Stat("tools_gen.go")
	assert.Error(t, err, "-report writes nothing")
}
