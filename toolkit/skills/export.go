package skills

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolgen-go/toolgen/runtime"
)

// Export returns the files of a skill folder describing tools: SKILL.md, whose front matter
// holds name and description and whose body describes each tool (description, detail,
// arguments' schema file, examples, warnings), and references/TOOL.schema.json with each
// tool's argument schema. name and description follow the specification's rules (see the
// package doc). The skill's allowed-tools names the tools. Keys are slash-separated paths
// in the folder.
func Export(name, description string, tools []runtime.Tool) (map[string][]byte, error) {
	if len(name) > 64 || !skillName.MatchString(name) {
		return nil, fmt.Errorf("skills: name %q is not at most 64 lowercase letters, digits and single hyphens, neither first nor last", name)
	}
	if d := strings.TrimSpace(description); d == "" || utf8.RuneCountInString(d) > 1024 {
		return nil, errors.New("skills: the description must be 1 to 1024 characters: say what the tools do and when to use them")
	}
	sorted := append([]runtime.Tool(nil), tools...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Name < sorted[j].Name })
	names := make([]string, len(sorted))
	for i, t := range sorted {
		names[i] = t.Name
	}
	front, err := yaml.Marshal(map[string]string{"name": name, "description": strings.TrimSpace(description), "allowed-tools": strings.Join(names, " ")})
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	files := map[string][]byte{}
	var body bytes.Buffer
	fmt.Fprintf(&body, "---\n%s---\n\n# %s\n\n%s\n\n## Tools\n", front, name, strings.TrimSpace(description))
	for _, t := range sorted {
		fmt.Fprintf(&body, "\n### %s\n\n%s\n", t.Name, strings.TrimSpace(t.Description))
		if d := strings.TrimSpace(t.Detail); d != "" {
			fmt.Fprintf(&body, "\n%s\n", d)
		}
		for _, w := range t.Warnings {
			fmt.Fprintf(&body, "\nWarning: %s\n", w)
		}
		if len(t.InputSchema) > 0 {
			schema := "references/" + t.Name + ".schema.json"
			var indented bytes.Buffer
			if err := json.Indent(&indented, t.InputSchema, "", "  "); err != nil {
				return nil, fmt.Errorf("skills: tool %s: its input schema is not JSON: %w", t.Name, err)
			}
			files[schema] = append(indented.Bytes(), '\n')
			fmt.Fprintf(&body, "\nArguments: the JSON Schema in [%s](%s).\n", schema, schema)
		}
		for _, ex := range t.Examples {
			fmt.Fprintf(&body, "\nExample%s: `%s`\n", exampleTitle(ex.Scenario), ex.Args)
		}
	}
	files["SKILL.md"] = body.Bytes()
	return files, nil
}

func exampleTitle(title string) string {
	if title == "" {
		return ""
	}
	return " (" + title + ")"
}

// WriteDir writes the files Export returned into dir (created if missing) through an
// os.Root, so no key leads out of it; existing files of the same names are replaced.
func WriteDir(dir string, files map[string][]byte) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("skills: %w", err)
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return fmt.Errorf("skills: %w", err)
	}
	defer root.Close()
	for name, data := range files {
		if !fs.ValidPath(name) {
			return fmt.Errorf("skills: %q is not a path inside the folder", name)
		}
		if d := path.Dir(name); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return fmt.Errorf("skills: %w", err)
			}
		}
		if err := root.WriteFile(name, data, 0o644); err != nil {
			return fmt.Errorf("skills: %w", err)
		}
	}
	return nil
}
