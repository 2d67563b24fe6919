package emit_test

import (
	"strings"
	"testing"

	"github.com/toolgen-go/toolgen/gen/emit"
	"github.com/toolgen-go/toolgen/gen/model"
)

func pingPackage() *model.Package {
	args := &model.Type{Kind: model.KindStruct, Named: &model.GoName{Path: "example.com/m", Name: "PingArgs"},
		Fields: []*model.Field{{GoName: "Host", JSONName: "host-name", Type: &model.Type{Kind: model.KindString}, Description: "Host."}}}
	return &model.Package{Path: "example.com/m", Name: "m", Tools: []*model.Tool{{
		Name: "ping", Description: "Pings.", Args: args,
		Handler: model.Handler{Name: "Ping", Context: true, Args: model.ArgsValue, Returns: model.ReturnText},
	}}}
}

func TestFileEmitsTheEnabledVariants(t *testing.T) {
	cases := []struct {
		name      string
		opts      []emit.Option
		want, not []string
	}{
		{"default: all", nil, []string{"runtime.VariantOpenAI:", "runtime.VariantAnthropic:", "runtime.VariantAnthropicStrict:",
			"runtime.VariantGeminiParameters:", "runtime.VariantGeminiJSONSchema:",
			`Renames: []runtime.Rename{{`, `From: "host-name"`, `To:   "host_name"`, "Strict: true"}, nil},
		{"openai only", []emit.Option{emit.Providers("openai")}, []string{"runtime.VariantOpenAI:"}, []string{"VariantGemini", "VariantAnthropic"}},
		{"mcp only", []emit.Option{emit.Providers("mcp")}, nil, []string{"Variants:"}},
	}
	for _, c := range cases {
		src, err := emit.File(pingPackage(), c.opts...)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		for _, w := range c.want {
			if !strings.Contains(string(src), w) {
				t.Errorf("%s: missing %q", c.name, w)
			}
		}
		for _, n := range c.not {
			if strings.Contains(string(src), n) {
				t.Errorf("%s: unexpected %q", c.name, n)
			}
		}
	}
}
