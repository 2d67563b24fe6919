package skills_test

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/skills"
	"github.com/toolgen-go/toolgen/toolkit/todos"
)

const pdfSkill = `---
name: pdf-forms
description: Fills PDF forms. Use when the user gives a PDF form to fill.
license: MIT
metadata:
  version: "1.2"
allowed-tools: read_file shell
---
# Filling forms

Read references/fields.md first.
`

func library(t *testing.T, fsys fstest.MapFS, limits skills.Limits) (*skills.Library, *runtime.Registry) {
	t.Helper()
	lib, err := skills.Load(fsys, limits)
	require.NoError(t, err)
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(lib.Tools()...))
	return lib, reg
}

func call(t *testing.T, reg *runtime.Registry, name, args string) runtime.Result {
	t.Helper()
	return reg.Invoke(t.Context(), runtime.Call{ID: "c", Name: name, Args: []byte(args)})
}

func TestProgressiveDisclosure(t *testing.T) {
	lib, reg := library(t, fstest.MapFS{
		"pdf-forms/SKILL.md":             {Data: []byte(pdfSkill)},
		"pdf-forms/references/fields.md": {Data: []byte("Field names are case-sensitive.\n")},
		"pdf-forms/scripts/fill.py":      {Data: []byte("print('fill')\n")},
		"notes/README.md":                {Data: []byte("not a skill: no SKILL.md")},
	}, skills.Limits{})

	require.Len(t, lib.Skills(), 1)
	s := lib.Skills()[0]
	assert.Equal(t, skills.Skill{Name: "pdf-forms", Description: "Fills PDF forms. Use when the user gives a PDF form to fill.",
		License: "MIT", Metadata: map[string]string{"version": "1.2"}, AllowedTools: []string{"read_file", "shell"}, Dir: "pdf-forms"}, s)

	listing := "Available skills (load_skill NAME reads one's instructions):\n- pdf-forms: Fills PDF forms. Use when the user gives a PDF form to fill."
	assert.Equal(t, listing, call(t, reg, "list_skills", `{}`).Text)
	for _, tool := range reg.Tools() {
		if tool.Name == "load_skill" {
			assert.True(t, strings.HasSuffix(tool.Description, listing), "the listing is in load_skill's description")
		}
	}

	body := call(t, reg, "load_skill", `{"name":"pdf-forms"}`)
	require.False(t, body.IsError, body.Text)
	assert.Equal(t, "# Skill pdf-forms\n\n# Filling forms\n\nRead references/fields.md first.\n\n"+
		"Bundled files (read_skill_file with skill pdf-forms reads one):\n- references/fields.md (32 bytes)\n- scripts/fill.py (14 bytes)", body.Text)
	assert.NotContains(t, body.Text, "license: MIT", "the front matter is not repeated")

	file := call(t, reg, "read_skill_file", `{"skill":"pdf-forms","path":"references/fields.md"}`)
	require.False(t, file.IsError, file.Text)
	assert.Equal(t, "Field names are case-sensitive.\n", file.Text)
}

func TestBadSkillsAreLeftOutAndNamed(t *testing.T) {
	skill := func(front string) *fstest.MapFile {
		return &fstest.MapFile{Data: []byte("---\n" + front + "\n---\nbody\n")}
	}
	tests := []struct {
		name string
		file *fstest.MapFile
		want string
	}{
		{"no front matter", &fstest.MapFile{Data: []byte("# just markdown\n")}, "does not start with a line of ---"},
		{"unclosed", &fstest.MapFile{Data: []byte("---\nname: bad\ndescription: x\n")}, "no closing ---"},
		{"not YAML", skill("name: [bad\ndescription: x"), "not valid YAML"},
		{"wrong shape", skill("name: {a: b}\ndescription: x"), "not valid YAML"},
		{"no name", skill("description: x"), "has no name"},
		{"bad name", skill("name: Bad--Name\ndescription: x"), "lowercase letters"},
		{"other folder's name", skill("name: other\ndescription: x"), "differs from the folder's name"},
		{"no description", skill("name: bad"), "has no description"},
		{"long description", skill("name: bad\ndescription: " + strings.Repeat("x", 1025)), "1024"},
		{"long compatibility", skill("name: bad\ndescription: x\ncompatibility: " + strings.Repeat("x", 501)), "500"},
		{"allowed-tools a map", skill("name: bad\ndescription: x\nallowed-tools: {a: b}"), "allowed-tools"},
		{"oversized front matter", skill("name: bad\ndescription: x\nlicense: " + strings.Repeat("x", 2000)), "within 1024 bytes"},
		{"oversized file", &fstest.MapFile{Data: []byte("---\nname: bad\n---\n" + strings.Repeat("x", 5000))}, "over the limit of 4096 bytes"},
		{"alias bomb", skill("name: bad\ndescription: x\nmetadata: &a {k: v}\nlicense: *a"), "not valid YAML"},
		{"binary", &fstest.MapFile{Data: []byte("---\nname: bad\x00\n---\n")}, "binary"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			lib, err := skills.Load(fstest.MapFS{"bad/SKILL.md": tt.file, "good/SKILL.md": {Data: []byte("---\nname: good\ndescription: Works.\n---\n")}},
				skills.Limits{MaxFrontMatter: 1024, MaxFileSize: 4096})
			require.Error(t, err)
			assert.Contains(t, err.Error(), "skills: bad: ")
			assert.Contains(t, err.Error(), tt.want)
			require.Len(t, lib.Skills(), 1, "the good skill still loads")
			assert.Equal(t, "good", lib.Skills()[0].Name)
		})
	}
}

func TestAllowedToolsAsList(t *testing.T) {
	lib, err := skills.Load(fstest.MapFS{"a/SKILL.md": {Data: []byte("---\nname: a\ndescription: A.\nallowed-tools: [Read, Bash]\nuser-invocable: true\n---\n")}}, skills.Limits{})
	require.NoError(t, err, "Claude Code's extra keys are ignored")
	assert.Equal(t, []string{"Read", "Bash"}, lib.Skills()[0].AllowedTools)
}

func TestMaxSkills(t *testing.T) {
	fsys := fstest.MapFS{}
	for _, n := range []string{"a", "b", "c"} {
		fsys[n+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + n + "\ndescription: X.\n---\n")}
	}
	lib, err := skills.Load(fsys, skills.Limits{MaxSkills: 2})
	require.ErrorContains(t, err, "c and the folders after it not loaded")
	assert.Len(t, lib.Skills(), 2)
}

func TestHostileReads(t *testing.T) {
	dir := t.TempDir()
	write := func(name, data string) {
		require.NoError(t, os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755))
		require.NoError(t, os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644))
	}
	write("a/SKILL.md", "---\nname: a\ndescription: A.\n---\nbody\n")
	write("b/SKILL.md", "---\nname: b\ndescription: B.\n---\nbody\n")
	write("b/secret.md", "b's")
	write("a/big.md", strings.Repeat("x", 2000))
	write("a/bin.dat", "\x00\x01")
	outside := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(outside, "passwd"), []byte("root"), 0o644))
	require.NoError(t, os.Symlink(outside, filepath.Join(dir, "a", "out")))
	require.NoError(t, os.Symlink("../b", filepath.Join(dir, "a", "sibling")))
	require.NoError(t, os.Symlink("secret.md", filepath.Join(dir, "b", "link.md")))

	for _, load := range []struct {
		name string
		open func() (*skills.Library, error)
	}{
		{"LoadDir", func() (*skills.Library, error) { return skills.LoadDir(dir, skills.Limits{MaxFileSize: 1000}) }},
		{"os.DirFS", func() (*skills.Library, error) { return skills.Load(os.DirFS(dir), skills.Limits{MaxFileSize: 1000}) }},
	} {
		lib, err := load.open()
		require.NoError(t, err)
		reg := runtime.NewRegistry()
		require.NoError(t, reg.Add(lib.Tools()...))
		tests := []struct {
			name, args string
			kind       runtime.ErrorKind
			want       string
		}{
			{"climb", `{"skill":"a","path":"../b/secret.md"}`, runtime.KindPermission, "not a file in the skill's folder"},
			{"climb inside", `{"skill":"a","path":"x/../../b/secret.md"}`, runtime.KindPermission, "not a file in the skill's folder"},
			{"absolute", `{"skill":"a","path":"/etc/passwd"}`, runtime.KindPermission, "not a file in the skill's folder"},
			{"backslash climb", `{"skill":"a","path":"..\\b\\secret.md"}`, runtime.KindPermission, "not a file in the skill's folder"},
			{"the folder", `{"skill":"a","path":"."}`, runtime.KindPermission, "not a file in the skill's folder"},
			{"link out", `{"skill":"a","path":"out/passwd"}`, runtime.KindPermission, "symbolic link"},
			{"link to a sibling", `{"skill":"a","path":"sibling/secret.md"}`, runtime.KindPermission, "symbolic link"},
			{"link in the folder", `{"skill":"b","path":"link.md"}`, runtime.KindPermission, "symbolic link"},
			{"oversized", `{"skill":"a","path":"big.md"}`, runtime.KindLimit, "over the limit of 1000 bytes"},
			{"binary", `{"skill":"a","path":"bin.dat"}`, runtime.KindInvalidInput, "binary"},
			{"missing", `{"skill":"a","path":"none.md"}`, runtime.KindNotFound, "does not exist"},
			{"no such skill", `{"skill":"zz","path":"x.md"}`, runtime.KindNotFound, "there is no skill \"zz\""},
		}
		for _, tt := range tests {
			t.Run(load.name+"/"+tt.name, func(t *testing.T) {
				res := call(t, reg, "read_skill_file", tt.args)
				require.True(t, res.IsError, res.Text)
				assert.Equal(t, tt.kind, res.Kind, res.Text)
				assert.Contains(t, res.Text, tt.want)
				assert.NotContains(t, res.Text, dir)
			})
		}
	}
}

func TestExportLoadsBack(t *testing.T) {
	files, err := skills.Export("todo-lists", "Keeps a plan of the task. Use for any task of several steps.", new(todos.Toolkit).Tools())
	require.NoError(t, err)
	require.Contains(t, files, "references/write_todos.schema.json")
	skillMD := string(files["SKILL.md"])
	assert.Contains(t, skillMD, "### write_todos\n\nReplaces the todo list")
	assert.Contains(t, skillMD, "Arguments: the JSON Schema in [references/write_todos.schema.json]")
	assert.Contains(t, skillMD, "Example (Plan a bug fix): `")

	dir := t.TempDir()
	require.NoError(t, skills.WriteDir(filepath.Join(dir, "todo-lists"), files))
	lib, err := skills.LoadDir(dir, skills.Limits{})
	require.NoError(t, err)
	require.Len(t, lib.Skills(), 1)
	s := lib.Skills()[0]
	assert.Equal(t, []string{"todo_add", "todo_list", "todo_update", "write_todos"}, s.AllowedTools)
	assert.Equal(t, "Keeps a plan of the task. Use for any task of several steps.", s.Description)

	_, err = skills.Export("Todo Lists", "x", nil)
	assert.ErrorContains(t, err, "lowercase letters")
	_, err = skills.Export("todos", " ", nil)
	assert.ErrorContains(t, err, "1 to 1024 characters")
	assert.ErrorContains(t, skills.WriteDir(dir, map[string][]byte{"../x": nil}), "not a path inside the folder")
}

func TestListingInDescriptionIsBounded(t *testing.T) {
	fsys := fstest.MapFS{}
	for i := range 100 {
		name := fmt.Sprintf("skill-%03d", i)
		fsys[name+"/SKILL.md"] = &fstest.MapFile{Data: []byte("---\nname: " + name + "\ndescription: " + strings.Repeat("d", 200) + "\n---\n")}
	}
	lib, reg := library(t, fsys, skills.Limits{})
	require.Len(t, lib.Skills(), 100)
	for _, tool := range reg.Tools() {
		if tool.Name == "load_skill" {
			assert.Less(t, len(tool.Description), 9<<10)
			assert.Regexp(t, `\n\[6\d more skills: list_skills lists them all\]$`, tool.Description)
		}
	}
	assert.Contains(t, call(t, reg, "list_skills", `{}`).Text, "skill-099", "list_skills lists them all")
}
