package skills

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// LoadDir loads the skills in dir through an os.Root, so no symbolic link leads out of it.
// The library keeps the directory open for the process's life.
func LoadDir(dir string, limits Limits) (*Library, error) {
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, fmt.Errorf("skills: %w", err)
	}
	return Load(root.FS(), limits)
}

// Load loads every folder of fsys's root that holds a SKILL.md. It returns the library of
// the skills that loaded and, when some did not, an error naming each and why: a host may
// go on with the rest. Folders without a SKILL.md are not skills and are skipped.
func Load(fsys fs.FS, limits Limits) (*Library, error) {
	l := &Library{fsys: fsys, limits: limits.withDefaults(), byName: map[string]int{}}
	entries, err := fs.ReadDir(fsys, ".")
	if err != nil {
		return nil, fmt.Errorf("skills: read the library: %w", err)
	}
	var problems []error
	for _, e := range entries {
		if !e.IsDir() || strings.HasPrefix(e.Name(), ".") {
			continue
		}
		if _, err := fs.Stat(fsys, e.Name()+"/SKILL.md"); errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if len(l.skills) == l.limits.MaxSkills {
			problems = append(problems, fmt.Errorf("skills: %s and the folders after it not loaded: the library holds at most %d skills (Limits.MaxSkills)", e.Name(), l.limits.MaxSkills))
			break
		}
		s, err := l.loadSkill(e.Name())
		if err != nil {
			problems = append(problems, fmt.Errorf("skills: %s: %w", e.Name(), err))
			continue
		}
		l.skills = append(l.skills, s)
	}
	sort.Slice(l.skills, func(i, j int) bool { return l.skills[i].Name < l.skills[j].Name })
	for i, s := range l.skills {
		l.byName[s.Name] = i
	}
	return l, errors.Join(problems...)
}

func (l *Library) loadSkill(dir string) (Skill, error) {
	front, _, err := l.readSkillFile(dir)
	if err != nil {
		return Skill{}, err
	}
	s, err := parseFrontMatter(front)
	if err != nil {
		return Skill{}, err
	}
	if s.Name != dir {
		return Skill{}, fmt.Errorf("name %q differs from the folder's name; the specification asks for the same", s.Name)
	}
	s.Dir = dir
	return s, nil
}

// readSkillFile reads dir/SKILL.md and splits it into front matter and body.
func (l *Library) readSkillFile(dir string) (front []byte, body string, err error) {
	text, err := l.readText(dir+"/SKILL.md", "SKILL.md")
	if err != nil {
		return nil, "", err
	}
	return splitFrontMatter(text, l.limits.MaxFrontMatter)
}

// splitFrontMatter splits a SKILL.md at the "---" lines around its front matter.
func splitFrontMatter(text string, max int) ([]byte, string, error) {
	text = strings.TrimPrefix(text, "\uFEFF")
	first, rest, ok := strings.Cut(text, "\n")
	if !ok || strings.TrimRight(first, " \t\r") != "---" {
		return nil, "", errors.New("SKILL.md does not start with a line of ---, which opens its YAML front matter")
	}
	end := -1
	for off := 0; off < len(rest) && off <= max; {
		line, _, _ := strings.Cut(rest[off:], "\n")
		if strings.TrimRight(line, " \t\r") == "---" {
			end = off
			break
		}
		off += len(line) + 1
	}
	if end < 0 {
		return nil, "", fmt.Errorf("SKILL.md's front matter has no closing --- line within %s", plural.Of(max, "byte"))
	}
	body := rest[end:]
	_, body, _ = strings.Cut(body, "\n")
	return []byte(rest[:end]), body, nil
}

// frontMatter is the YAML of a SKILL.md, as the specification defines it.
type frontMatter struct {
	Name          string            `yaml:"name"`
	Description   string            `yaml:"description"`
	License       string            `yaml:"license"`
	Compatibility string            `yaml:"compatibility"`
	Metadata      map[string]string `yaml:"metadata"`
	AllowedTools  yaml.Node         `yaml:"allowed-tools"`
}

var skillName = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

func parseFrontMatter(front []byte) (Skill, error) {
	var fm frontMatter
	if err := yaml.Unmarshal(front, &fm); err != nil {
		return Skill{}, fmt.Errorf("the front matter is not valid YAML of the expected shape: %w", err)
	}
	switch {
	case fm.Name == "":
		return Skill{}, errors.New("the front matter has no name")
	case len(fm.Name) > 64 || !skillName.MatchString(fm.Name):
		return Skill{}, fmt.Errorf("name %q is not at most 64 lowercase letters, digits and single hyphens, neither first nor last", fm.Name)
	case strings.TrimSpace(fm.Description) == "":
		return Skill{}, errors.New("the front matter has no description")
	case utf8.RuneCountInString(fm.Description) > 1024:
		return Skill{}, fmt.Errorf("the description is %d characters long, over the specification's 1024", utf8.RuneCountInString(fm.Description))
	case utf8.RuneCountInString(fm.Compatibility) > 500:
		return Skill{}, fmt.Errorf("compatibility is %d characters long, over the specification's 500", utf8.RuneCountInString(fm.Compatibility))
	}
	tools, err := allowedTools(fm.AllowedTools)
	if err != nil {
		return Skill{}, err
	}
	return Skill{Name: fm.Name, Description: strings.TrimSpace(fm.Description), License: fm.License,
		Compatibility: fm.Compatibility, Metadata: fm.Metadata, AllowedTools: tools}, nil
}

// allowedTools reads allowed-tools: a space-separated string (the specification) or a list.
func allowedTools(n yaml.Node) ([]string, error) {
	switch n.Kind {
	case 0:
		return nil, nil
	case yaml.ScalarNode:
		return strings.Fields(n.Value), nil
	case yaml.SequenceNode:
		var list []string
		if err := n.Decode(&list); err != nil {
			return nil, fmt.Errorf("allowed-tools: %w", err)
		}
		return list, nil
	default:
		return nil, errors.New("allowed-tools is neither a space-separated string nor a list of tool names")
	}
}

// inFolder turns a path the model sent into a name in the skill's folder, refusing any way
// out of it.
func inFolder(dir, p string) (string, error) {
	clean := path.Clean(strings.ReplaceAll(p, `\`, "/"))
	if strings.HasPrefix(p, "/") || clean == ".." || strings.HasPrefix(clean, "../") || clean == "." || !fs.ValidPath(clean) {
		return "", runtime.ModelErrorf(runtime.KindPermission, "%q is not a file in the skill's folder: give a path relative to it, as load_skill lists them, e.g. references/guide.md", p)
	}
	return dir + "/" + clean, nil
}

// readText reads the file name (shown to the model as shownAs), refusing links on the way,
// what is not a regular file, files over the size bound, and binary files.
func (l *Library) readText(name, shownAs string) (string, error) {
	if err := l.noLinks(name, shownAs); err != nil {
		return "", err
	}
	info, err := fs.Stat(l.fsys, name)
	if err != nil {
		return "", fileError(shownAs, err)
	}
	if !info.Mode().IsRegular() {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s is not a regular file (a directory or a device); load_skill lists the skill's files", shownAs)
	}
	if info.Size() > l.limits.MaxFileSize {
		return "", runtime.ModelErrorf(runtime.KindLimit, "%s is %s, over the limit of %s", shownAs, plural.Of(info.Size(), "byte"), plural.Of(l.limits.MaxFileSize, "byte"))
	}
	f, err := l.fsys.Open(name)
	if err != nil {
		return "", fileError(shownAs, err)
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, l.limits.MaxFileSize+1)) // bounded even if it grew since Stat
	if err != nil {
		return "", fileError(shownAs, err)
	}
	if int64(len(data)) > l.limits.MaxFileSize {
		return "", runtime.ModelErrorf(runtime.KindLimit, "%s is over the limit of %s", shownAs, plural.Of(l.limits.MaxFileSize, "byte"))
	}
	if bytes.IndexByte(data, 0) >= 0 || !utf8.Valid(data) {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "%s is a binary file (%s); read_skill_file reads text only", shownAs, plural.Of(len(data), "byte"))
	}
	return string(data), nil
}

// noLinks refuses a symbolic link at any step of name, where fsys can tell (fs.ReadLinkFS).
func (l *Library) noLinks(name, shownAs string) error {
	links, ok := l.fsys.(fs.ReadLinkFS)
	if !ok {
		return nil
	}
	for i := 0; i <= len(name); i++ {
		if i < len(name) && name[i] != '/' {
			continue
		}
		info, err := links.Lstat(name[:i])
		if err != nil {
			return fileError(shownAs, err)
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return runtime.ModelErrorf(runtime.KindPermission, "%s leads through a symbolic link, and skills do not follow links", shownAs)
		}
	}
	return nil
}

func fileError(shownAs string, err error) error {
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &runtime.ModelError{Kind: runtime.KindNotFound, Err: err, Message: shownAs + " does not exist; load_skill lists the skill's files"}
	case strings.Contains(err.Error(), "path escapes"):
		return &runtime.ModelError{Kind: runtime.KindPermission, Err: err, Message: shownAs + " leads outside the skill's folder"}
	default:
		return &runtime.ModelError{Kind: runtime.KindInternal, Err: err, Message: shownAs + " could not be read"}
	}
}
