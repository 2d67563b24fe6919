package repair

import (
	"context"
	"fmt"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/toolgen-go/toolgen/internal/jsonpointer"
	"github.com/toolgen-go/toolgen/runtime"
)

// The names Sanitizers registers its filters under, for //tool:filters.
const (
	FilterTrim         = "trim"          // TrimStrings
	FilterStripControl = "strip_control" // StripControl
)

// Sanitizers returns the string filters by name, for runtime.WithFilter or
// Registry.RegisterFilter, so a tool can ask for them with //tool:filters trim,strip_control.
// Use them with runtime.WithMiddleware to apply them to every tool.
func Sanitizers() map[string]runtime.Middleware {
	return map[string]runtime.Middleware{
		FilterTrim:         TrimStrings(),
		FilterStripControl: StripControl(),
	}
}

// TrimStrings is a middleware that removes white space at both ends of every string value
// of the arguments (object keys are left alone), before the arguments are validated, so
// minLength, patterns and formats see the trimmed text. Every change is recorded as a
// Sanitized repair (runtime.NoteRepairs): in Result.Metadata and to the observer.
func TrimStrings() runtime.Middleware {
	return stringFilter(func(s string) string { return strings.TrimFunc(s, unicode.IsSpace) })
}

// StripControl is a middleware that removes control characters (Unicode category Cc but tab,
// line feed and carriage return, and the format characters U+200B–U+200F, U+202A–U+202E,
// U+2060–U+2064 and U+FEFF that hide or reorder text) from every string value of the
// arguments, before they are validated. Every change is recorded as a Sanitized repair.
func StripControl() runtime.Middleware {
	return stringFilter(func(s string) string {
		return strings.Map(func(r rune) rune {
			if hidden(r) {
				return -1
			}
			return r
		}, s)
	})
}

func hidden(r rune) bool {
	switch {
	case r == '\t' || r == '\n' || r == '\r':
		return false
	case unicode.IsControl(r):
		return true
	case r >= 0x200B && r <= 0x200F, r >= 0x202A && r <= 0x202E, r >= 0x2060 && r <= 0x2064, r == 0xFEFF:
		return true
	}
	return false
}

// stringFilter rewrites every string value of the arguments with f, before validation.
// Arguments that are not JSON pass unchanged: the decoder reports them.
func stringFilter(f func(string) string) runtime.Middleware {
	return func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			if len(call.Args) > MaxArgs {
				return next(ctx, call)
			}
			doc, err := parse(call.Args)
			if err != nil {
				return next(ctx, call)
			}
			var fixes []runtime.Repair
			eachString(doc, "", func(v *value, path string) {
				if s := f(v.literal); s != v.literal {
					fixes = append(fixes, runtime.Repair{Path: path, Kind: Sanitized, From: shorten(quoted(v.literal)), To: shorten(quoted(s))})
					v.literal = s
				}
			})
			if len(fixes) > 0 {
				runtime.NoteRepairs(ctx, fixes...)
				call.Args = doc.bytes()
			}
			return next(ctx, call)
		}
	}
}

func eachString(v *value, path string, f func(v *value, path string)) {
	switch v.kind {
	case kindString:
		f(v, path)
	case kindObject:
		for i, k := range v.keys {
			eachString(v.items[i], path+"/"+jsonpointer.Escape(k), f)
		}
	case kindArray:
		for i, item := range v.items {
			eachString(item, path+"/"+itoa(i), f)
		}
	}
}

// MaxStringLength is a middleware that refuses a call any of whose string values (object
// keys included) is longer than n characters, whatever the tool's own maxLength says: a
// registry-wide bound on what one argument may carry. The model reads every string over the
// bound, with its JSON Pointer, and nothing runs; nothing is cut.
func MaxStringLength(n int) runtime.Middleware {
	return func(next runtime.Handler) runtime.Handler {
		return func(ctx context.Context, call runtime.Call) runtime.Result {
			// A string of more than n characters has more than n bytes: shorter arguments
			// pass unread.
			if len(call.Args) <= n {
				return next(ctx, call)
			}
			doc, err := parse(call.Args)
			if err != nil {
				return next(ctx, call)
			}
			var problems []runtime.Problem
			check := func(s, path, what string) {
				if l := utf8.RuneCountInString(s); l > n {
					problems = append(problems, runtime.Problem{Path: path,
						Message: fmt.Sprintf("%s is %d characters long; at most %d are allowed", what, l, n)})
				}
			}
			var walk func(v *value, path string)
			walk = func(v *value, path string) {
				switch v.kind {
				case kindString:
					check(v.literal, path, "the string")
				case kindObject:
					for i, k := range v.keys {
						p := path + "/" + jsonpointer.Escape(k)
						check(k, p, "the property name")
						walk(v.items[i], p)
					}
				case kindArray:
					for i, item := range v.items {
						walk(item, path+"/"+itoa(i))
					}
				}
			}
			walk(doc, "")
			if len(problems) == 0 {
				return next(ctx, call)
			}
			err = &runtime.ArgsError{Tool: call.Name, Problems: problems}
			return runtime.Result{
				Text:    err.Error() + "\nShorten the values and call " + call.Name + " again.",
				IsError: true,
				Err:     err,
				Kind:    runtime.KindInvalidInput,
			}
		}
	}
}
