package client

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Bounds on what a tools/list document can make toolgen -client read, hold and generate. A
// server's listing is untrusted input; docs/limits.md lists these.
const (
	MaxListingBytes = 16 << 20 // the whole document (every page of a live server's answer)
	MaxJSONDepth    = 128      // nesting of JSON arrays and objects in the document
	MaxTools        = 1000     // tools in the listing
	MaxSchemaDepth  = 32       // schemas nested in one another ($ref followed included)
	MaxProperties   = 1000     // properties of one object schema
	MaxEnumValues   = 1000     // values of one enum
	MaxTypes        = 10000    // named types in the generated package
	MaxNameBytes    = 256      // a tool, property, $defs or enum value name turned into a Go name
	MaxDocBytes     = 4096     // a description copied into a doc comment (cut, marked)
	MaxPages        = 100      // pages of a live server's tools/list
	MaxProblems     = 200      // problems reported; the rest are counted
)

// Problem is one finding about a tools/list document, at a JSON Pointer into it.
type Problem struct {
	Pointer string // RFC 6901, into the document as read (for a live server: as -save writes it)
	Message string // lower case, no trailing period
	Warning bool   // the code is generated anyway, with the fallback the message names
}

// Problems collects the problems of one document, all of them rather than the first.
type Problems struct {
	list    []Problem
	dropped int
}

func (p *Problems) add(pr Problem) {
	if len(p.list) >= MaxProblems {
		p.dropped++
		return
	}
	p.list = append(p.list, pr)
}

func (p *Problems) errorf(ptr, format string, args ...any) {
	p.add(Problem{Pointer: ptr, Message: fmt.Sprintf(format, args...)})
}

func (p *Problems) warnf(ptr, format string, args ...any) {
	p.add(Problem{Pointer: ptr, Message: fmt.Sprintf(format, args...), Warning: true})
}

// List returns the problems in the order of their pointers.
func (p *Problems) List() []Problem {
	out := slices.Clone(p.list)
	slices.SortStableFunc(out, func(a, b Problem) int { return strings.Compare(a.Pointer, b.Pointer) })
	return out
}

// HasErrors reports whether a problem is an error (or, under strict, a warning).
func (p *Problems) HasErrors(strict bool) bool {
	for _, pr := range p.list {
		if !pr.Warning || strict {
			return true
		}
	}
	return p.dropped > 0 && strict
}

// Print writes one line per problem, "SOURCE#POINTER: message" ("warning: " before a
// warning's message), as the go command prints positions. Control and format characters
// (a server's names may hold ESC, BEL, CR, C1 controls, bidi overrides) and invalid UTF-8
// are escaped Go-style (\x1b, \u202e), and a pointer's backslashes too (\\), so nothing a
// server sends moves the operator's terminal or splits a line. (Messages quote names with
// %q already.)
func (p *Problems) Print(w io.Writer, source string) {
	for _, pr := range p.List() {
		prefix := ""
		if pr.Warning {
			prefix = "warning: "
		}
		fmt.Fprintf(w, "%s#%s: %s%s\n", EscapeControls(source), escapeControls(pr.Pointer, true), prefix, EscapeControls(pr.Message))
	}
	if p.dropped > 0 {
		fmt.Fprintf(w, "%s: and %d more problems\n", EscapeControls(source), p.dropped)
	}
}

// Listing is a parsed tools/list document.
type Listing struct {
	tools   []*node
	pointer string // of the tools array
}

// ParseListing reads a tools/list document: the result of a tools/list request
// ({"tools":[…]}), or a whole JSON-RPC response holding one ({"result":{"tools":[…]}}). The
// error is for a document that is not one (not JSON, too large, no tools array); problems in
// the tools are Problems of Build.
func ParseListing(data []byte) (*Listing, error) {
	if len(data) > MaxListingBytes {
		return nil, fmt.Errorf("the tools/list document is %d bytes, over the limit of %d", len(data), MaxListingBytes)
	}
	root, err := parseJSON(data)
	if err != nil {
		if errors.Is(err, errTooDeep) {
			return nil, fmt.Errorf("the tools/list document is %w", err)
		}
		return nil, fmt.Errorf("the tools/list document is not JSON: %w", err)
	}
	ptr := ""
	if res := root.get("result"); res != nil && root.get("tools") == nil {
		root, ptr = res, "/result"
	}
	tools := root.get("tools")
	if tools == nil || tools.kind != kindArray {
		return nil, errors.New(`the document is not a tools/list result: want {"tools":[…]} or a JSON-RPC response with one`)
	}
	if len(tools.items) > MaxTools {
		return nil, fmt.Errorf("the listing has %d tools, over the limit of %d", len(tools.items), MaxTools)
	}
	return &Listing{tools: tools.items, pointer: ptr + "/tools"}, nil
}

// Len is the number of tools listed.
func (l *Listing) Len() int { return len(l.tools) }

// EscapeControls returns s with its control and format characters, line and paragraph
// separators and invalid UTF-8 bytes escaped Go-style (\x1b, \u202e): for text from a
// server (an error it answered) printed to the operator's terminal.
func EscapeControls(s string) string { return escapeControls(s, false) }

// escapeControls returns s with its control and format characters, line and paragraph
// separators and invalid UTF-8 bytes escaped, and its backslashes when backslashes is set.
func escapeControls(s string, backslashes bool) string {
	clean := true
	for _, r := range s {
		if r == '\\' && backslashes || r == utf8.RuneError || unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == '\\' && backslashes:
			b.WriteString(`\\`)
		case r == utf8.RuneError && n == 1, r < 0x80 && unicode.IsControl(r):
			fmt.Fprintf(&b, `\x%02x`, s[i])
		case unicode.IsControl(r) || unicode.In(r, unicode.Cf, unicode.Zl, unicode.Zp):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+n])
		}
		i += n
	}
	return b.String()
}
