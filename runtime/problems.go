package runtime

import (
	"errors"
	"strings"
)

// Problem is one thing wrong with a call's arguments: where (a JSON Pointer, "" for the whole
// document) and what, worded for a model to correct its call.
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// ArgsError reports invalid arguments: every problem found, in document order.
type ArgsError struct {
	Tool     string // the tool name, when known
	Problems []Problem
}

func (e *ArgsError) Error() string {
	var b strings.Builder
	b.WriteString("invalid arguments")
	if e.Tool != "" {
		b.WriteString(" for ")
		b.WriteString(e.Tool)
	}
	if len(e.Problems) == 1 {
		b.WriteString(": ")
		b.WriteString(e.Problems[0].String())
		return b.String()
	}
	b.WriteString(":")
	for _, p := range e.Problems {
		b.WriteString("\n- ")
		b.WriteString(p.String())
	}
	return b.String()
}

// FieldError returns an error about one argument, for a Validate method: path is a JSON
// Pointer such as "/days". Several can be joined with errors.Join; each joins the problem list.
func FieldError(path, message string) error {
	return &fieldError{Problem{Path: path, Message: message}}
}

type fieldError struct{ p Problem }

func (e *fieldError) Error() string { return e.p.String() }

// ValidationProblems turns the error of a Validate method into problems: FieldErrors (also
// joined with errors.Join, or wrapped) keep their paths; any other error becomes a problem
// about the whole document.
func ValidationProblems(err error) []Problem {
	var out []Problem
	var walk func(error)
	walk = func(err error) {
		if err == nil {
			return
		}
		if joined, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range joined.Unwrap() {
				walk(e)
			}
			return
		}
		switch e := err.(type) {
		case *fieldError:
			out = append(out, e.p)
			return
		case *ArgsError:
			out = append(out, e.Problems...)
			return
		}
		var fe *fieldError
		var ae *ArgsError
		if errors.As(err, &fe) || errors.As(err, &ae) {
			// A wrapper of field errors, perhaps of a join of them: the paths are inside.
			if inner := errors.Unwrap(err); inner != nil {
				walk(inner)
				return
			}
		}
		out = append(out, Problem{Message: err.Error()})
	}
	walk(err)
	return out
}
