// Package skills serves Agent Skills to a model: folders holding a SKILL.md (YAML front
// matter with a name and a description, then Markdown instructions) and any files the
// instructions refer to (scripts/, references/, assets/), the format Claude Code, the Agents
// SDK and Codex share (https://agentskills.io/specification).
//
// A skill is disclosed progressively, as the format intends: the model first sees only each
// skill's name and description, reads a skill's instructions when a task calls for it, and
// reads a bundled file only when the instructions send it there. The tools:
//
//   - list_skills {} lists the skills' names and descriptions.
//   - load_skill {name} returns a skill's instructions (the body of its SKILL.md) and the
//     list of its bundled files.
//   - read_skill_file {skill, path} returns one bundled file.
//
// [Library.Tools] returns the three with the listing also in load_skill's description, for a
// host that wants the model to see the skills without a call; [Library.Listing] is the same
// text for a system prompt.
//
//	lib, err := skills.LoadDir("/srv/agent/skills", skills.Limits{})
//	reg.Add(lib.Tools()...)
//
// # Loading
//
// [Load] reads every folder of an fs.FS that holds a SKILL.md; [LoadDir] opens a directory
// through an os.Root first. The front matter is YAML (go.yaml.in/yaml/v3, already a
// dependency of toolgen's schematool), bounded by [Limits.MaxFrontMatter] before it is
// parsed. It is checked as the specification says: name (at most 64 lowercase letters,
// digits and single hyphens, not starting or ending with one, and the same as the folder's
// name) and description (1 to 1024 characters) are required; license, compatibility (at
// most 500 characters), metadata (strings to strings) and allowed-tools (a space-separated
// string, or a YAML list as some writers use) are read; other keys, such as Claude Code's
// own, are ignored. A folder that breaks these rules is left out, and Load's error names it
// and why, next to the skills that did load.
//
// # Bounds and confinement
//
// Skill folders are untrusted too (a downloaded skill is someone else's text): a SKILL.md
// or bundled file over [Limits.MaxFileSize] is refused, as is a library of more than
// [Limits.MaxSkills] skills, and a file listing stops at [Limits.MaxFiles]. Paths the model
// sends are confined to the skill's folder: absolute paths, "..", and symbolic links
// (followed by nothing: any link on the way is refused, where the fs.FS can tell,
// fs.ReadLinkFS, as os.DirFS and os.Root's FS can) are refused, and so is anything that is
// not a regular file. Binary files are refused with their size: the model reads text.
//
// # Exporting tools as a skill
//
// [Export] turns a registry's tools into a skill folder: a SKILL.md describing each tool
// (its description, detail, arguments and examples) and the JSON Schema of each tool's
// arguments under references/. [WriteDir] writes such a folder to disk.
package skills

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"io/fs"
	"strings"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// Skill is one loaded skill: its front matter, and where it lives.
type Skill struct {
	Name          string
	Description   string
	License       string
	Compatibility string
	Metadata      map[string]string
	AllowedTools  []string
	// Dir is the skill's folder in the library's fs.FS, e.g. "pdf-forms".
	Dir string
}

// Limits bounds what a library reads; zero fields take the defaults.
type Limits struct {
	// MaxSkills is the most skills a library loads: 0 means 200.
	MaxSkills int
	// MaxFileSize is the largest SKILL.md or bundled file read, in bytes: 0 means 256 KiB.
	MaxFileSize int64
	// MaxFrontMatter is the largest front matter parsed, in bytes: 0 means 16 KiB.
	MaxFrontMatter int
	// MaxFiles is the most bundled files load_skill lists: 0 means 200.
	MaxFiles int
}

func (l Limits) withDefaults() Limits {
	if l.MaxSkills <= 0 {
		l.MaxSkills = 200
	}
	if l.MaxFileSize <= 0 {
		l.MaxFileSize = 256 << 10
	}
	if l.MaxFrontMatter <= 0 {
		l.MaxFrontMatter = 16 << 10
	}
	if l.MaxFiles <= 0 {
		l.MaxFiles = 200
	}
	return l
}

// Library is a set of loaded skills, and the tools that disclose them. It is read-only once
// loaded and safe for concurrent use.
type Library struct {
	fsys   fs.FS
	limits Limits
	skills []Skill // sorted by name
	byName map[string]int
}

// Skills returns the loaded skills, sorted by name.
func (l *Library) Skills() []Skill { return append([]Skill(nil), l.skills...) }

// Listing is the skills' names and descriptions, one per line, for a system prompt or a
// tool's description.
func (l *Library) Listing() string {
	if len(l.skills) == 0 {
		return "No skills are available."
	}
	var b strings.Builder
	b.WriteString("Available skills (load_skill NAME reads one's instructions):\n")
	for _, s := range l.skills {
		fmt.Fprintf(&b, "- %s: %s\n", s.Name, oneLine(s.Description))
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// maxListingInDescription bounds the listing Tools puts into load_skill's description, which
// the model reads on every turn.
const maxListingInDescription = 8 << 10

// Tools returns the library's tools with the listing appended to load_skill's description,
// so the model knows the skills without calling list_skills. Past 8 KiB the listing is cut,
// with a line telling the model that list_skills lists the rest.
func (l *Library) Tools() []runtime.Tool {
	listing := l.Listing()
	if len(listing) > maxListingInDescription {
		cut := strings.LastIndexByte(listing[:maxListingInDescription], '\n')
		rest := strings.Count(listing[cut:], "\n- ")
		listing = listing[:cut] + fmt.Sprintf("\n[%d more skills: list_skills lists them all]", rest)
	}
	tools := LibraryTools(l)
	for i := range tools {
		if tools[i].Name == "load_skill" {
			tools[i].Description += "\n\n" + listing
		}
	}
	return tools
}

// ListSkills lists the skills you can use, each with what it does and when to use it.
// Call it at the start of a task, then load_skill the one that fits before doing the task.
//
//tool:name list_skills
//tool:hints readonly,idempotent
//tool:timeout 5s
//tool:maxresult 256KiB
func (l *Library) ListSkills(context.Context) (string, error) {
	return l.Listing(), nil
}

// LoadSkillArgs are the arguments of load_skill.
type LoadSkillArgs struct {
	// Name of the skill, as list_skills shows it.
	Name string `json:"name" tool:"minLength=1,maxLength=64"`
}

// LoadSkill returns a skill's instructions and the list of its bundled files. Follow the
// instructions; read a bundled file with read_skill_file only when they refer to it.
//
//tool:name load_skill
//tool:hints readonly,idempotent
//tool:timeout 10s
//tool:maxresult 300KiB
//tool:example {"name":"pdf-forms"}
func (l *Library) LoadSkill(_ context.Context, args LoadSkillArgs) (string, error) {
	s, err := l.skill(args.Name)
	if err != nil {
		return "", err
	}
	_, body, err := l.readSkillFile(s.Dir)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("# Skill %s\n\n%s\n\n%s", s.Name, strings.TrimSpace(body), l.bundled(s)), nil
}

// ReadSkillFileArgs are the arguments of read_skill_file.
type ReadSkillFileArgs struct {
	// Skill is the skill's name.
	Skill string `json:"skill" tool:"minLength=1,maxLength=64"`
	// Path of the file in the skill's folder, as load_skill lists it, e.g. references/forms.md.
	Path string `json:"path" tool:"minLength=1,maxLength=1024"`
}

// ReadSkillFile reads one file bundled with a skill, e.g. a reference its instructions
// point to.
//
//tool:name read_skill_file
//tool:hints readonly,idempotent
//tool:timeout 10s
//tool:maxresult 300KiB
//tool:example {"skill":"pdf-forms","path":"references/fields.md"}
func (l *Library) ReadSkillFile(_ context.Context, args ReadSkillFileArgs) (string, error) {
	s, err := l.skill(args.Skill)
	if err != nil {
		return "", err
	}
	name, err := inFolder(s.Dir, args.Path)
	if err != nil {
		return "", err
	}
	return l.readText(name, args.Path)
}

func (l *Library) skill(name string) (Skill, error) {
	i, ok := l.byName[name]
	if !ok {
		return Skill{}, runtime.ModelErrorf(runtime.KindNotFound, "there is no skill %q; %s", name, l.Listing())
	}
	return l.skills[i], nil
}

// bundled lists the files of a skill's folder other than SKILL.md, with sizes.
func (l *Library) bundled(s Skill) string {
	var files []string
	more := 0
	_ = fs.WalkDir(l.fsys, s.Dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || p == s.Dir+"/SKILL.md" {
			return nil
		}
		if len(files) >= l.limits.MaxFiles {
			more++
			if more > 10*l.limits.MaxFiles {
				return fs.SkipAll // a huge folder costs no more than this
			}
			return nil
		}
		size := ""
		if info, err := d.Info(); err == nil && d.Type().IsRegular() {
			size = fmt.Sprintf(" (%s)", plural.Of(info.Size(), "byte"))
		}
		files = append(files, "- "+strings.TrimPrefix(p, s.Dir+"/")+size)
		return nil
	})
	if len(files) == 0 {
		return "This skill has no bundled files."
	}
	out := "Bundled files (read_skill_file with skill " + s.Name + " reads one):\n" + strings.Join(files, "\n")
	if more > 0 {
		out += fmt.Sprintf("\n[%d more files not listed]", more)
	}
	return out
}

func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
