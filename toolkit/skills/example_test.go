package skills_test

import (
	"context"
	"fmt"
	"log"
	"testing/fstest"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/skills"
)

func Example() {
	// A skill folder as Claude Code writes one; skills.LoadDir reads one from disk.
	lib, err := skills.Load(fstest.MapFS{
		"release-notes/SKILL.md": {Data: []byte("---\nname: release-notes\n" +
			"description: Writes release notes from merged changes. Use when asked for a changelog.\n---\n" +
			"Group the changes by kind; follow references/style.md.\n")},
		"release-notes/references/style.md": {Data: []byte("One line per change, imperative mood.\n")},
	}, skills.Limits{})
	if err != nil {
		log.Fatal(err) // names each folder that did not load, and why
	}
	reg := runtime.NewRegistry()
	if err := reg.Add(lib.Tools()...); err != nil {
		log.Fatal(err)
	}
	for _, c := range []runtime.Call{
		{Name: "list_skills"},
		{Name: "load_skill", Args: []byte(`{"name":"release-notes"}`)},
		{Name: "read_skill_file", Args: []byte(`{"skill":"release-notes","path":"references/style.md"}`)},
	} {
		fmt.Println(reg.Invoke(context.Background(), c).Text)
	}
	// Output:
	// Available skills (load_skill NAME reads one's instructions):
	// - release-notes: Writes release notes from merged changes. Use when asked for a changelog.
	// # Skill release-notes
	//
	// Group the changes by kind; follow references/style.md.
	//
	// Bundled files (read_skill_file with skill release-notes reads one):
	// - references/style.md (38 bytes)
	// One line per change, imperative mood.
}
