package runtime_test

import (
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/toolgen-go/toolgen/runtime"
)

func TestValidationProblems(t *testing.T) {
	a, b := runtime.FieldError("/a", "must be set"), runtime.FieldError("/b", "must be even")
	pa, pb := runtime.Problem{Path: "/a", Message: "must be set"}, runtime.Problem{Path: "/b", Message: "must be even"}
	tests := []struct {
		name string
		err  error
		want []runtime.Problem
	}{
		{"one", a, []runtime.Problem{pa}},
		{"joined", errors.Join(a, b), []runtime.Problem{pa, pb}},
		{"wrapped", fmt.Errorf("checking: %w", a), []runtime.Problem{pa}},
		{"wrapped join", fmt.Errorf("checking: %w", errors.Join(a, b)), []runtime.Problem{pa, pb}},
		{"args error", fmt.Errorf("v: %w", &runtime.ArgsError{Problems: []runtime.Problem{pb}}), []runtime.Problem{pb}},
		{"plain", errors.New("start must be before end"), []runtime.Problem{{Message: "start must be before end"}}},
		{"join of plain and field", errors.Join(errors.New("bad"), b), []runtime.Problem{{Message: "bad"}, pb}},
	}
	for _, tt := range tests {
		if got := runtime.ValidationProblems(tt.err); !slices.Equal(got, tt.want) {
			t.Errorf("%s: got %v, want %v", tt.name, got, tt.want)
		}
	}
}
