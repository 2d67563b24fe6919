// Package diag collects the diagnostics of a toolgen run: user errors and warnings, each at a
// file:line:col position, printed all at once, sorted and de-duplicated, like the go command.
package diag

import (
	"cmp"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/gen/model"
)

// Severity separates errors, which fail the run, from warnings, which fail it only under
// -strict.
type Severity int

const (
	Error Severity = iota
	Warning
	// Note is information that never fails a run, such as type errors in a package whose
	// code calls not-yet-generated functions.
	Note
)

// Diagnostic is one finding about the user's code.
type Diagnostic struct {
	Pos      model.Position
	Severity Severity
	Message  string // lower case, no trailing period
	Hint     string // optional: how to fix it, printed on an indented second line
}

// List gathers diagnostics. The zero value is ready to use.
type List struct {
	items []Diagnostic
}

// Errorf records an error at pos.
func (l *List) Errorf(pos model.Position, format string, args ...any) *Diagnostic {
	return l.add(Diagnostic{Pos: pos, Severity: Error, Message: fmt.Sprintf(format, args...)})
}

// Warnf records a warning at pos.
func (l *List) Warnf(pos model.Position, format string, args ...any) *Diagnostic {
	return l.add(Diagnostic{Pos: pos, Severity: Warning, Message: fmt.Sprintf(format, args...)})
}

func (l *List) add(d Diagnostic) *Diagnostic {
	l.items = append(l.items, d)
	return &l.items[len(l.items)-1]
}

// WithHint sets the hint of a diagnostic just recorded: l.Errorf(...).WithHint("...").
// The pointer is valid until the next call that records a diagnostic.
//
// A hint that is only a correction ("did you mean //tool:timeout?") joins the message
// instead ("unknown directive //tool:timout; did you mean //tool:timeout?"): editors and CI
// problem matchers read the file:line:col line alone, and the correction is what they must
// not lose.
func (d *Diagnostic) WithHint(format string, args ...any) {
	hint := fmt.Sprintf(format, args...)
	if IsCorrection(hint) {
		d.Message += "; " + hint
		return
	}
	d.Hint = hint
}

// IsCorrection reports whether a hint is a single "did you mean …?" question.
func IsCorrection(hint string) bool {
	return strings.HasPrefix(hint, "did you mean ") && strings.HasSuffix(hint, "?") &&
		strings.Count(hint, "?") == 1 && !strings.Contains(hint, "\n")
}

// Notef records a note at pos.
func (l *List) Notef(pos model.Position, format string, args ...any) *Diagnostic {
	return l.add(Diagnostic{Pos: pos, Severity: Note, Message: fmt.Sprintf(format, args...)})
}

// HasErrors reports whether any error (or, when strict, any warning) was recorded.
func (l *List) HasErrors(strict bool) bool {
	for _, d := range l.items {
		if d.Severity == Error || strict && d.Severity == Warning {
			return true
		}
	}
	return false
}

// Len is the number of diagnostics recorded.
func (l *List) Len() int { return len(l.items) }

// Items returns the diagnostics sorted by position, then severity and message, without
// duplicates (the loader reports some errors twice).
func (l *List) Items() []Diagnostic {
	out := slices.Clone(l.items)
	slices.SortStableFunc(out, compare)
	return slices.CompactFunc(out, func(a, b Diagnostic) bool { return compare(a, b) == 0 && a.Hint == b.Hint })
}

func compare(a, b Diagnostic) int {
	return cmp.Or(a.Pos.Compare(b.Pos), cmp.Compare(a.Severity, b.Severity), strings.Compare(a.Message, b.Message))
}

// Print writes every diagnostic as "file:line:col: message" (warnings as
// "file:line:col: warning: message"), with file names relative to dir when they lie below it,
// and the hint on an indented second line.
func (l *List) Print(w io.Writer, dir string) {
	for _, d := range l.Items() {
		pos := d.Pos
		pos.Filename = Relative(dir, pos.Filename)
		prefix := ""
		switch d.Severity {
		case Warning:
			prefix = "warning: "
		case Note:
			prefix = "note: "
		}
		if !pos.IsValid() {
			// Not about a place in the code (go list's "no Go files in DIR"): no "-:" in front,
			// and the directory relative, as the rest of the output.
			msg := d.Message
			if dir != "" {
				msg = strings.ReplaceAll(msg, filepath.ToSlash(dir)+"/", "")
				msg = strings.ReplaceAll(msg, " "+filepath.ToSlash(dir), " .")
			}
			fmt.Fprintf(w, "toolgen: %s%s\n", prefix, msg)
		} else {
			fmt.Fprintf(w, "%s: %s%s\n", pos, prefix, d.Message)
		}
		if d.Hint != "" {
			// Hints may quote another position ("previous //tool:name at …"); print it relative
			// as well.
			hint := d.Hint
			if dir != "" {
				hint = absPath.ReplaceAllStringFunc(hint, func(path string) string { return Relative(dir, path) })
			}
			fmt.Fprintf(w, "\thint: %s\n", hint)
		}
	}
}

// absPath matches an absolute path to a Go file in a hint.
var absPath = regexp.MustCompile(`(?:[A-Za-z]:)?[/\\][^\s:;,"]+\.go`)

// Relative returns path relative to dir, as the go command prints paths: below dir as is
// (a.go), elsewhere with ../ when that is shorter than the absolute path; forward slashes, so
// output is the same on every system.
func Relative(dir, path string) string {
	if dir == "" || path == "" || !filepath.IsAbs(path) {
		return filepath.ToSlash(path)
	}
	rel, err := filepath.Rel(dir, path)
	if err != nil || strings.HasPrefix(rel, "..") && len(rel) >= len(path) {
		return filepath.ToSlash(path)
	}
	return filepath.ToSlash(rel)
}
