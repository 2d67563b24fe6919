package parse_test

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolgen-go/toolgen/gen/model"
)

const taskDirectives = `package m

import "context"

type A struct{ X string }

// Long runs as an MCP task.
//
//tool:task
func Long(ctx context.Context, a A) (string, error) { return "", nil }

// Must runs as a task or not at all.
//
//tool:task required
func Must(ctx context.Context, a A) (string, error) { return "", nil }

// Typo misspells required.
//
//tool:task requird
func Typo(ctx context.Context, a A) (string, error) { return "", nil }

// Greeting is a prompt, which no task can serve.
//
//tool:prompt
//tool:task
func Greeting(ctx context.Context, a A) (string, error) { return "", nil }
`

func TestTaskDirective(t *testing.T) {
	src := taskDirectives
	r := parseFiles(t, map[string]string{"m.go": src})
	wantErrors(t, r, []string{
		at(t, src, "//tool:task requird", "requird", `unexpected argument "requird"`),
		at(t, src, "func Greeting", "Greeting", "//tool:task on Greeting, which is served as a prompt or a resource"),
	})
	msgs := r.messages()
	assert.True(t, strings.Contains(msgs, `unexpected argument "requird"; did you mean required?`), msgs)
	assert.True(t, strings.Contains(msgs, "hint: drop //tool:task: only tools/call runs as an MCP task"), msgs)
	assert.Equal(t, model.TaskOptional, r.tool(t, "long").Task)
	assert.Equal(t, model.TaskRequired, r.tool(t, "must").Task)
	assert.Equal(t, model.TaskNone, r.tool(t, "typo").Task, "a directive with problems is not applied")
}
