package check

import (
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen/diag"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/suggest"
)

// Limits on descriptions, in characters (code points).
const (
	maxDescription  = 1024 // OpenAI rejects longer function descriptions
	longDescription = 200  // longer first paragraphs cost context on every turn
)

// Run checks every tool of a run and records diagnostics.
//
// Names are checked per package: a package's generated catalog (its Tools()) is what a
// registry receives at once, so a name must be unique there and a //tool:related name must be
// in it. Two packages may both declare search (two agents in one module each want one); a
// registry given both refuses the second at run time, naming both origins. Checking per
// package makes go generate, which runs toolgen on one package at a time, and toolgen -check
// ./... agree.
func Run(pkgs []*model.Package, diags *diag.List) {
	w := parameterWalker{seen: map[walked]bool{}, reported: map[reportKey]bool{}, diags: diags}
	nestedHeaders := map[*model.Field]bool{}
	for _, p := range pkgs {
		checkNames(p.Tools, diags)
		checkCategoryPrefixes(p, diags)
		known := make([]string, 0, len(p.Tools))
		for _, t := range p.Tools {
			known = append(known, t.Name)
		}
		slices.Sort(known)
		known = slices.Compact(known)
		for _, t := range p.Tools {
			checkRelated(t, known, diags)
			checkPrerequisites(t, known, diags)
			checkWorkflow(t, known, diags)
			checkDescription(p, t, diags)
			checkHints(t, diags)
			checkSchemas(t, diags)
			checkHeaders(t, nestedHeaders, diags)
			checkLint(p, t, diags)
			w.tool(p, t)
		}
	}
}

// checkNames reports invalid names, and every repeat of a name after its first use in
// position order, so the result does not depend on the order files were loaded in.
//
// This is the only check of a name derived from the Go name (a Go name may hold letters no
// provider accepts); a //tool:name argument was checked by the annotations package, and an
// invalid one leaves the derived name in place.
func checkNames(tools []*model.Tool, diags *diag.List) {
	byName := map[string][]*model.Tool{}
	var names []string
	for _, t := range tools {
		if !annotations.IsValidName(t.Name) {
			d := diags.Errorf(t.Pos, "invalid tool name %q: it must match %s", t.Name, annotations.NamePattern)
			if s := annotations.SuggestName(t.Name); s != "" {
				d.WithHint("name the tool with //tool:name, e.g. //tool:name %s", s)
			} else {
				d.WithHint("name the tool with //tool:name NAME")
			}
		}
		if byName[t.Name] == nil {
			names = append(names, t.Name)
		}
		byName[t.Name] = append(byName[t.Name], t)
	}
	for _, name := range names {
		same := byName[name]
		slices.SortStableFunc(same, func(a, b *model.Tool) int { return a.Pos.Compare(b.Pos) })
		for _, t := range same[1:] {
			diags.Errorf(t.Pos, "duplicate tool name %q", name).
				WithHint("%s already declares it; tool names must be unique within a package (one Tools() catalog): rename one with //tool:name", same[0].Pos)
		}
	}
}

func checkDescription(p *model.Package, t *model.Tool, diags *diag.List) {
	n := utf8.RuneCountInString(strings.TrimSpace(t.Description))
	switch {
	case n == 0:
		where := "a doc comment"
		if t.Handler.Name != "" && !t.Client {
			where = "a doc comment on " + t.Handler.Name
		}
		diags.Errorf(t.Pos, "tool %s has no description", t.Name).
			WithHint("the model chooses tools by their description: write %s, or use //tool:description", where)
	case n > maxDescription:
		diags.Errorf(t.Pos, "description of tool %s is %d characters long, over the limit of %d", t.Name, n, maxDescription).
			WithHint("keep the first paragraph short; the following paragraphs become the tool's detail")
	case n > longDescription && model.LintOn(p, t, ruleDescriptionLength):
		diags.Warnf(t.Pos, "description of tool %s is %d characters long, over %d", t.Name, n, longDescription).
			WithHint("models read it on every turn: keep the first paragraph short and move the rest to later paragraphs (the tool's detail)%s",
				offWith(ruleDescriptionLength))
	}
}

func checkHints(t *model.Tool, diags *diag.List) {
	h := t.Hints
	if h.ReadOnly && h.Destructive {
		diags.Errorf(t.Pos, "tool %s is hinted both readonly and destructive", t.Name).
			WithHint("a tool that changes nothing cannot destroy anything: drop one of the two hints")
	}
	if t.Retry != nil && h.Destructive && !h.Idempotent {
		diags.Errorf(t.Pos, "tool %s retries a destructive call that is not idempotent: a retry could repeat the damage", t.Name).
			WithHint("add the idempotent hint if repeating the call is safe, or remove //tool:retry")
	}
	if h.Destructive && !t.Confirm {
		diags.Warnf(t.Pos, "destructive tool %s runs without approval", t.Name).
			WithHint("add //tool:confirm so that someone approves each call")
	}
}

// checkPrerequisites checks that the tool a //tool:prerequisite names as its check is in the
// package, as checkRelated does for //tool:related.
func checkPrerequisites(t *model.Tool, known []string, diags *diag.List) {
	for _, pr := range t.Prerequisites {
		if pr.Check == "" {
			continue
		}
		if _, found := slices.BinarySearch(known, pr.Check); found {
			continue
		}
		d := diags.Errorf(pr.CheckPos, "//tool:prerequisite checks with unknown tool %q", pr.Check)
		if s := suggest.Closest(pr.Check, known); s != "" {
			d.WithHint("did you mean %q?", s)
		} else {
			d.WithHint("the checking tool must be declared in the same package (the same Tools() catalog)")
		}
	}
}

// checkWorkflow checks that the tool a //tool:workflow step names is in the package.
func checkWorkflow(t *model.Tool, known []string, diags *diag.List) {
	for _, st := range t.Workflow {
		if st.Tool == "" {
			continue
		}
		if _, found := slices.BinarySearch(known, st.Tool); found {
			continue
		}
		d := diags.Errorf(st.ToolPos, "//tool:workflow step %q names unknown tool %q", st.Name, st.Tool)
		if s := suggest.Closest(st.Tool, known); s != "" {
			d.WithHint("did you mean %q?", s)
		} else {
			d.WithHint("the step's tool must be declared in the same package (the same Tools() catalog)")
		}
	}
}

func checkRelated(t *model.Tool, known []string, diags *diag.List) {
	for _, r := range t.Related {
		if _, found := slices.BinarySearch(known, r.Name); found {
			continue
		}
		d := diags.Errorf(r.Pos, "//tool:related names unknown tool %q", r.Name)
		if s := suggest.Closest(r.Name, known); s != "" {
			d.WithHint("did you mean %q?", s)
		} else {
			d.WithHint("a related tool must be declared in the same package (the same Tools() catalog)")
		}
	}
}
