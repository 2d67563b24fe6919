package presets

import (
	"cmp"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/go-faster/jx"

	"github.com/toolgen-go/toolgen/runtime"
)

// Renaming renames one tool of a set, and its arguments (RenameAll).
type Renaming struct {
	Tool string            // the tool's name in the set
	Name string            // its new name; "" keeps Tool
	Args map[string]string // its arguments' new names (old → new); nil keeps them
}

// RenameAll returns the tools of set that renames lists, each renamed by Rename, in renames'
// order; the others are left out. Every text of the tools returned then names the set's
// tools as they are returned: a reference to a renamed tool names it by its new name, and a
// clause naming a tool left out is dropped, so that no text tells the model to call a tool
// it does not have (file_write's "To change a part of a file, use edit_file." under BeamAI,
// which has no edit_file). The texts are the description, detail, title, confirm reason,
// triggers, warnings, workflow, prerequisites, related tools, examples and the
// descriptions in the input and output schemas; what the handlers write at run time names
// the tools through runtime.ToolName, which Rename's Tool.DeclaredName serves.
//
// A reference is a whole word equal to a tool name that holds an underscore (read_file,
// web_fetch). A one-word name (glob, grep, shell, task) is an English word too, which the
// toolkits' texts use as one ("a glob pattern", "a shell command"): their static texts name
// no one-word tool, and their run-time texts name such tools through runtime.ToolName.
func RenameAll(set []runtime.Tool, renames ...Renaming) ([]runtime.Tool, error) {
	kept := map[string]string{} // a name in set → the name it is returned under
	for _, r := range renames {
		kept[r.Tool] = cmp.Or(r.Name, r.Tool)
	}
	var refs []string
	for _, t := range set {
		if strings.Contains(t.Name, "_") {
			refs = append(refs, t.Name)
		}
	}
	rw := newRewriter(refs, kept)
	out := make([]runtime.Tool, 0, len(renames))
	for _, r := range renames {
		i := slices.IndexFunc(set, func(t runtime.Tool) bool { return t.Name == r.Tool })
		if i < 0 {
			return nil, fmt.Errorf("presets: no tool %q to rename", r.Tool)
		}
		t, err := Rename(set[i], cmp.Or(r.Name, r.Tool), r.Args)
		if err != nil {
			return nil, err
		}
		if err := retext(&t, rw.text); err != nil {
			return nil, fmt.Errorf("presets: rename %s: %w", r.Tool, err)
		}
		t.Related = slices.DeleteFunc(t.Related, func(rel runtime.Related) bool {
			_, ok := kept[rel.Name]
			return !ok && slices.ContainsFunc(set, func(t runtime.Tool) bool { return t.Name == rel.Name })
		})
		for j, rel := range t.Related {
			if n, ok := kept[rel.Name]; ok {
				t.Related[j].Name = n
			}
		}
		out = append(out, t)
	}
	return out, nil
}

// mustRenameAll is RenameAll for the presets' own tables, known to rename.
func mustRenameAll(set []runtime.Tool, renames ...Renaming) []runtime.Tool {
	out, err := RenameAll(set, renames...)
	if err != nil {
		panic(err)
	}
	return out
}

// rewriter rewrites the references to a set's tools in a text.
type rewriter struct {
	word *regexp.Regexp    // a whole word that is a name of the set
	kept map[string]string // a name → its new name; absent: the tool is left out
}

func newRewriter(names []string, kept map[string]string) *rewriter {
	if len(names) == 0 {
		return &rewriter{kept: kept}
	}
	names = slices.Clone(names)
	slices.SortFunc(names, func(a, b string) int { return cmp.Compare(len(b), len(a)) }) // longest first
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return &rewriter{word: regexp.MustCompile(`\b(?:` + strings.Join(quoted, "|") + `)\b`), kept: kept}
}

// text renames the references of s to tools kept, and drops the parentheses and clauses that
// refer to tools left out.
func (rw *rewriter) text(_ string, s string) string {
	if rw.word == nil || !rw.word.MatchString(s) {
		return s
	}
	absent := func(part string) bool {
		for _, m := range rw.word.FindAllString(part, -1) {
			if _, ok := rw.kept[m]; !ok {
				return true
			}
		}
		return false
	}
	// A parenthesis naming a tool left out goes, then a clause.
	s = parenthesis.ReplaceAllStringFunc(s, func(p string) string {
		if absent(p) {
			return ""
		}
		return p
	})
	var b strings.Builder
	for _, c := range clauses(s) {
		if absent(c.text) {
			if c.sep != "; " {
				// The clause ended a sentence: the kept clause before it ends it now.
				if k, ok := strings.CutSuffix(b.String(), "; "); ok {
					b.Reset()
					b.WriteString(k + c.sep)
				}
			}
			continue
		}
		b.WriteString(c.text + c.sep)
	}
	return rw.word.ReplaceAllStringFunc(strings.TrimSpace(b.String()), func(m string) string { return rw.kept[m] })
}

var parenthesis = regexp.MustCompile(` ?\([^()]*\)`)

// clause is a part of a text up to a separator: "; ", ". " or the end.
type clause struct{ text, sep string }

// clauses cuts s into its clauses, keeping "e.g. " and "i.e. " inside theirs.
func clauses(s string) []clause {
	var out []clause
	start := 0
	for i := 0; i < len(s); i++ {
		if (s[i] != '.' && s[i] != ';') || i+1 < len(s) && s[i+1] != ' ' && s[i+1] != '\n' {
			continue
		}
		if s[i] == '.' && (strings.HasSuffix(s[:i+1], "e.g.") || strings.HasSuffix(s[:i+1], "i.e.")) {
			continue
		}
		end := min(i+2, len(s))
		out = append(out, clause{text: s[start:i], sep: s[i:end]})
		start = end
		i = end - 1
	}
	if start < len(s) {
		out = append(out, clause{text: s[start:]})
	}
	return out
}

// retext rewrites every text of t with f, which is given where the text is ("description",
// "/properties/num/description") and the text.
func retext(t *runtime.Tool, f func(where, s string) string) error {
	t.Title = f("title", t.Title)
	t.Description = f("description", t.Description)
	t.Detail = f("detail", t.Detail)
	t.ConfirmReason = f("confirm", t.ConfirmReason)
	each := func(where string, list []string) []string {
		if list == nil {
			return nil
		}
		out := make([]string, 0, len(list))
		for _, s := range list {
			if s = f(where, s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	t.Triggers = each("trigger", t.Triggers)
	t.Warnings = each("warning", t.Warnings)
	t.Workflow = slices.Clone(t.Workflow)
	for i, st := range t.Workflow {
		t.Workflow[i] = runtime.WorkflowStep{Name: f("workflow", st.Name), Tool: f("workflow", st.Tool), Condition: f("workflow", st.Condition)}
	}
	t.Prerequisites = slices.Clone(t.Prerequisites)
	for i, p := range t.Prerequisites {
		t.Prerequisites[i] = runtime.Prerequisite{Condition: f("prerequisite", p.Condition), Check: f("prerequisite", p.Check), Else: f("prerequisite", p.Else)}
	}
	t.Related = slices.Clone(t.Related)
	for i, r := range t.Related {
		t.Related[i].Relation = f("related", r.Relation)
	}
	t.Examples = slices.Clone(t.Examples)
	for i, e := range t.Examples {
		t.Examples[i].Scenario = f("example", e.Scenario)
		t.Examples[i].Expected = f("example", e.Expected)
	}
	var err error
	if t.InputSchema, err = rewriteDescriptions(t.InputSchema, f); err != nil {
		return err
	}
	if t.OutputSchema, err = rewriteDescriptions(t.OutputSchema, f); err != nil {
		return err
	}
	if t.Variants != nil {
		t.Variants = nil // derived again from the rewritten schema (Dialects)
	}
	return nil
}

// rewriteDescriptions rewrites the "description" strings of a JSON Schema, wherever they
// are, with f (given their JSON Pointer), keeping everything else as it is.
func rewriteDescriptions(schema []byte, f func(where, s string) string) ([]byte, error) {
	if len(schema) == 0 {
		return schema, nil
	}
	var e jx.Encoder
	if err := rewriteValue(jx.DecodeBytes(schema), &e, "", f); err != nil {
		return nil, err
	}
	return e.Bytes(), nil
}

func rewriteValue(d *jx.Decoder, e *jx.Encoder, at string, f func(where, s string) string) error {
	switch d.Next() {
	case jx.Object:
		e.ObjStart()
		err := d.ObjBytes(func(d *jx.Decoder, key []byte) error {
			e.FieldStart(string(key))
			where := at + "/" + string(key)
			if string(key) == "description" && d.Next() == jx.String {
				s, err := d.Str()
				e.Str(f(where, s))
				return err
			}
			return rewriteValue(d, e, where, f)
		})
		e.ObjEnd()
		return err
	case jx.Array:
		e.ArrStart()
		i := 0
		err := d.Arr(func(d *jx.Decoder) error {
			i++
			return rewriteValue(d, e, fmt.Sprintf("%s/%d", at, i-1), f)
		})
		e.ArrEnd()
		return err
	default:
		return copyValue(d, e)
	}
}

// copyValue copies the next JSON value of d to e as it is.
func copyValue(d *jx.Decoder, e *jx.Encoder) error {
	raw, err := d.Raw()
	if err != nil {
		return err
	}
	e.Raw(raw)
	return nil
}
