package presets_test

import (
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/ask"
	"github.com/toolgen-go/toolgen/toolkit/presets"
	"github.com/toolgen-go/toolgen/toolkit/presets/research"
	"github.com/toolgen-go/toolgen/toolkit/sandbox"
	"github.com/toolgen-go/toolgen/toolkit/subagent"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// everyPreset is each preset's tools, by the preset's name.
func everyPreset() map[string][]runtime.Tool {
	return map[string][]runtime.Tool{
		"Coding":            presets.Coding(presets.CodingOptions{}),
		"Agent":             presets.Agent(presets.AgentOptions{}),
		"research.Tools":    research.Tools(research.Options{}),
		"BeamAI":            presets.BeamAI(nil),
		"OpenAkita":         presets.OpenAkita(nil),
		"XMLAgent":          presets.XMLAgent(nil),
		"research.XMLAgent": research.XMLAgent(nil),
	}
}

// toolkitTools are the toolkits' tools under their own names, aliases included: every tool a
// preset's text could name.
func toolkitTools() map[string]runtime.Tool {
	out := map[string]runtime.Tool{}
	all := slices.Concat(workspace.New(nil).Tools(), research.Tools(research.Options{}), (&ask.Toolkit{}).Tools(), subagent.ToolkitTools(&subagent.Toolkit{}))
	for _, p := range everyPreset() {
		all = append(all, p...)
	}
	for _, t := range all {
		if t.DeclaredName == "" {
			out[t.Name] = t
		}
	}
	return out
}

// texts returns every text of t a model reads, with where it is.
func texts(t *testing.T, tool runtime.Tool) map[string]string {
	out := map[string]string{"title": tool.Title, "description": tool.Description, "detail": tool.Detail, "confirm": tool.ConfirmReason}
	add := func(where string, list []string) {
		for i, s := range list {
			out[fmt.Sprintf("%s %d", where, i)] = s
		}
	}
	add("trigger", tool.Triggers)
	add("warning", tool.Warnings)
	for i, st := range tool.Workflow {
		out[fmt.Sprintf("workflow %d", i)] = st.String()
	}
	for i, e := range tool.Examples {
		out[fmt.Sprintf("example %d", i)] = e.Scenario + " " + e.Expected + " " + string(e.Args)
	}
	for i, p := range tool.Prerequisites {
		out[fmt.Sprintf("prerequisite %d", i)] = p.String()
	}
	for i, r := range tool.Related {
		out[fmt.Sprintf("related %d", i)] = r.Name + " " + r.Relation
	}
	for name, schema := range map[string]json.RawMessage{"input": tool.InputSchema, "output": tool.OutputSchema} {
		if len(schema) == 0 {
			continue
		}
		var v any
		require.NoError(t, json.Unmarshal(schema, &v))
		var walk func(at string, v any)
		walk = func(at string, v any) {
			switch v := v.(type) {
			case map[string]any:
				for k, x := range v {
					if s, ok := x.(string); ok && k == "description" {
						out[name+at+"/description"] = s
					} else {
						walk(at+"/"+k, x)
					}
				}
			case []any:
				for i, x := range v {
					walk(fmt.Sprintf("%s/%d", at, i), x)
				}
			}
		}
		walk("", v)
	}
	return out
}

// namesTool reports whether text refers to the tool named name: as a whole word when the
// name holds an underscore, else (an English word too: "a glob pattern") where a sentence
// points to a tool ("use glob", "glob finds").
func namesTool(text, name string) bool {
	q := regexp.QuoteMeta(name)
	if strings.Contains(name, "_") {
		return regexp.MustCompile(`\b` + q + `\b`).MatchString(text)
	}
	return regexp.MustCompile(`(?i)\b(use|call|with|see|try|run) ` + q + `\b|\b` + q + `(?:'s)? (finds|lists|reads|shows|runs|writes|edits)\b`).MatchString(text)
}

// properties returns the names of a schema's top-level properties.
func properties(t *testing.T, schema json.RawMessage) []string {
	var s struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	require.NoError(t, json.Unmarshal(schema, &s))
	var out []string
	for p := range s.Properties {
		out = append(out, p)
	}
	return out
}

// No text of a preset's tools names a tool the preset lacks, or an argument its tool lacks
// (a renamed one by its old name, or by its Go field's, "Num is…" under max_results).
func TestPresetTextsNameOnlyTheirTools(t *testing.T) {
	known := toolkitTools()
	for preset, tools := range everyPreset() {
		has := presettestNames(tools)
		for _, tool := range tools {
			orig := known[tool.Name]
			if tool.DeclaredName != "" {
				orig = known[tool.DeclaredName]
			}
			props := properties(t, tool.InputSchema)
			var goneArgs []string
			for _, p := range properties(t, orig.InputSchema) {
				if !slices.Contains(props, p) {
					goneArgs = append(goneArgs, p)
				}
			}
			for where, text := range texts(t, tool) {
				for name := range known {
					if !has[name] {
						assert.False(t, namesTool(text, name), "%s: %s's %s names %s, which the preset lacks: %q", preset, tool.Name, where, name, text)
					}
				}
				for _, arg := range goneArgs {
					head, _, _ := strings.Cut(text, " ")
					assert.False(t, strings.EqualFold(head, strings.ReplaceAll(arg, "_", "")) || namesArgument(text, arg),
						"%s: %s's %s names the argument %s, which is not %s's: %q", preset, tool.Name, where, arg, tool.Name, text)
				}
			}
		}
	}
}

func presettestNames(tools []runtime.Tool) map[string]bool {
	out := map[string]bool{}
	for _, t := range tools {
		out[t.Name] = true
	}
	return out
}

// What BeamAI's tools write at run time names its tools as registered too: the hints of
// file_read, file_list and the pages' footers.
func TestBeamAIRunTimeTextsNameItsTools(t *testing.T) {
	files := map[string]string{"main.go": "package main\n", "docs/a.md": "# A\n", "bin": "\x00\x01", "long.txt": strings.Repeat("line\n", 3000)}
	for i := range 501 {
		files[fmt.Sprintf("many/f%03d", i)] = ""
	}
	sb := sandbox.NewMemory(files)
	beam := presets.BeamAI(workspace.New(sb))
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(beam...))
	id, err := reg.ResultStore().Put(t.Context(), runtime.StoredResult{Session: "s", Tool: "shell_exec", ContentType: runtime.ContentTypeText, Data: []byte(strings.Repeat("x", 100))})
	require.NoError(t, err)

	for _, c := range []struct{ tool, args, want string }{
		{"file_read", `{"path":"docs"}`, "docs is a directory; file_list lists it"},
		{"file_read", `{"path":"nope.go"}`, "nope.go does not exist; file_list or file_glob show what does"},
		{"file_read", `{"path":"bin"}`, "file_read reads text only"},
		{"file_read", `{"path":"long.txt","limit":10}`, "; file_read with offset=11 reads on]"},
		{"file_list", `{"path":"main.go"}`, "main.go is a file, not a directory; file_read reads it"},
		{"file_list", `{"path":"many"}`, "the first 500 shown; file_glob finds files by pattern"},
		{"read_result", `{"id":"` + id + `","limit":10}`, "; read_result with offset=10 reads on]"},
	} {
		res := reg.Invoke(t.Context(), runtime.Call{Name: c.tool, Args: []byte(c.args), Session: "s"})
		text := res.Text[max(0, len(res.Text)-200):] // the toolkit's words, after any listing
		assert.Contains(t, text, c.want, "%s %s", c.tool, c.args)
		assert.NotRegexp(t, `\b(read_file|list_dir|glob|edit_file|grep)\b`, text, "%s %s", c.tool, c.args)
	}

	// Without file_list and file_glob, a missing path is only said missing.
	reg = runtime.NewRegistry()
	require.NoError(t, reg.Add(presets.Without(beam, "file_list", "file_glob")...))
	res := reg.Invoke(t.Context(), runtime.Call{Name: "file_read", Args: []byte(`{"path":"nope.go"}`)})
	assert.Equal(t, "nope.go does not exist", res.Text)
}

// RenameAll drops what refers to a tool left out and renames what refers to one kept.
func TestRenameAllRewritesReferences(t *testing.T) {
	tools := workspace.New(nil).Tools()
	out, err := presets.RenameAll(tools, presets.Renaming{Tool: "write_file", Name: "file_write"}, presets.Renaming{Tool: "edit_file", Name: "file_edit"})
	require.NoError(t, err)
	assert.Contains(t, out[0].Description, "use file_edit", "a reference to a renamed tool names it by its new name")
	out, err = presets.RenameAll(tools, presets.Renaming{Tool: "write_file", Name: "file_write"})
	require.NoError(t, err)
	assert.Equal(t, "Creates a file in the workspace, or replaces its whole content, creating missing directories.", out[0].Description,
		"the sentence naming edit_file, left out, goes")
	_, err = presets.RenameAll(tools, presets.Renaming{Tool: "nope"})
	assert.ErrorContains(t, err, `no tool "nope"`)
}

// namesArgument reports whether text names the argument arg: as a whole word, but where it
// is an English word used as one (after an article or a hyphen, before a hyphen).
func namesArgument(text, arg string) bool {
	q := regexp.QuoteMeta(arg)
	for _, m := range regexp.MustCompile(`(?:^|[^\w-])(\w+ )?`+q+`\b(-)?`).FindAllStringSubmatch(text, -1) {
		article := strings.ToLower(strings.TrimSpace(m[1]))
		if m[2] == "" && article != "the" && article != "a" && article != "an" {
			return true
		}
	}
	return false
}
