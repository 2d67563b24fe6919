package workspace

import (
	"context"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// The tools' texts name the workspace's other tools as the call's registry holds them
// (runtime.ToolName): a preset that renames them (presets.BeamAI's file_read) gets its
// names, and a hint pointing to a tool the registry lacks is left out, never sent.

// toolHint returns "; " and format with the registered name of the tool declared as
// declared, or "" when the call's registry has no such tool.
func toolHint(ctx context.Context, declared, format string) string {
	name, ok := runtime.ToolName(ctx, declared)
	if !ok {
		return ""
	}
	return "; " + fmt.Sprintf(format, name)
}

// toolName returns the registered name of the tool declared as declared, or "" when the
// call's registry has no such tool.
func toolName(ctx context.Context, declared string) string {
	name, _ := runtime.ToolName(ctx, declared)
	return name
}

// whatExistsHint is the hint of a path that does not exist: the tools that show what does.
func whatExistsHint(ctx context.Context) string {
	list, glob := toolName(ctx, "list_dir"), toolName(ctx, "glob")
	switch {
	case list != "" && glob != "":
		return fmt.Sprintf("; %s or %s show what does", list, glob)
	case list != "" || glob != "":
		return fmt.Sprintf("; %s shows what does", list+glob)
	}
	return ""
}
