package memory

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
)

// Anthropic serves the six commands as one tool named memory, with the input of Anthropic's
// memory tool ({command, path, …}): a host that declares Anthropic's built-in memory tool
// to the model answers its calls with this one. Register it instead of Toolkit.Tools, not
// beside them:
//
//	reg.Add((&memory.Anthropic{Toolkit: mem}).Tools()...)
type Anthropic struct {
	Toolkit *Toolkit
}

// Command is a memory command.
type Command string

const (
	CommandView       Command = "view"        // memory_view
	CommandCreate     Command = "create"      // memory_create
	CommandStrReplace Command = "str_replace" // memory_str_replace
	CommandInsert     Command = "insert"      // memory_insert
	CommandDelete     Command = "delete"      // memory_delete
	CommandRename     Command = "rename"      // memory_rename
)

// CommandArgs are the arguments of memory: the command and the arguments it takes.
type CommandArgs struct {
	// Command to run.
	Command Command `json:"command"`
	// Path of the file or directory (all commands but rename).
	Path string `json:"path,omitempty" tool:"default='',maxLength=1024"`
	// ViewRange is [first, last] line to view, 1-based; last -1 means the end (view).
	ViewRange []int `json:"view_range,omitempty" tool:"minItems=2,maxItems=2"`
	// FileText is the whole content of the file (create).
	FileText string `json:"file_text,omitempty" tool:"default=''"`
	// OldStr is the text to replace, occurring exactly once (str_replace).
	OldStr string `json:"old_str,omitempty" tool:"default=''"`
	// NewStr replaces it (str_replace).
	NewStr string `json:"new_str,omitempty" tool:"default=''"`
	// InsertLine is the line after which to insert, 0 for the top (insert).
	InsertLine int `json:"insert_line,omitempty" tool:"default=0,minimum=0"`
	// InsertText is the text to insert (insert).
	InsertText string `json:"insert_text,omitempty" tool:"default=''"`
	// OldPath is the file or directory to rename (rename).
	OldPath string `json:"old_path,omitempty" tool:"default='',maxLength=1024"`
	// NewPath is its new name (rename).
	NewPath string `json:"new_path,omitempty" tool:"default='',maxLength=1024"`
}

// Memory views and edits your memory directory, /memories. ALWAYS view it before anything
// else in a task, and record progress in it as you go.
//
// Your context may be reset at any moment: only what is in /memories survives. Keep it
// organised in a few topic files, and delete what is outdated.
//
//tool:name memory
//tool:sequential
//tool:timeout 10s
//tool:maxresult 96KiB
//tool:example "Check memory first" {"command":"view","path":"/memories"}
//tool:example "Record progress" {"command":"create","path":"/memories/progress.md","file_text":"- [x] reproduced the bug\n"}
func (a *Anthropic) Run(ctx context.Context, args CommandArgs) (string, error) {
	if err := args.missing(); err != nil {
		return "", err
	}
	k := a.Toolkit
	switch args.Command {
	case CommandView:
		return k.View(ctx, ViewArgs{Path: args.Path, ViewRange: args.ViewRange})
	case CommandCreate:
		return k.Create(ctx, CreateArgs{Path: args.Path, FileText: args.FileText})
	case CommandStrReplace:
		return k.StrReplace(ctx, StrReplaceArgs{Path: args.Path, OldStr: args.OldStr, NewStr: args.NewStr})
	case CommandInsert:
		return k.Insert(ctx, InsertArgs{Path: args.Path, InsertLine: args.InsertLine, InsertText: args.InsertText})
	case CommandDelete:
		return k.Delete(ctx, DeleteArgs{Path: args.Path})
	default: // rename: the decoder admits only the six commands
		return k.Rename(ctx, RenameArgs{OldPath: args.OldPath, NewPath: args.NewPath})
	}
}

// missing refuses a call without an argument its command needs: the one tool's schema
// cannot say which command needs which, the six tools' schemas do.
func (args CommandArgs) missing() error {
	need := map[Command][]struct{ name, value string }{
		CommandView:       {{"path", args.Path}},
		CommandCreate:     {{"path", args.Path}},
		CommandStrReplace: {{"path", args.Path}, {"old_str", args.OldStr}},
		CommandInsert:     {{"path", args.Path}, {"insert_text", args.InsertText}},
		CommandDelete:     {{"path", args.Path}},
		CommandRename:     {{"old_path", args.OldPath}, {"new_path", args.NewPath}},
	}
	for _, arg := range need[args.Command] {
		if arg.value == "" {
			return runtime.ModelErrorf(runtime.KindInvalidInput, "the %s command needs %s", args.Command, arg.name)
		}
	}
	return nil
}
