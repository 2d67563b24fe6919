// Package artifacts gives a model documents it writes and revises over a conversation (a
// report, a plan, a piece of code), with every version kept:
//
//   - create_artifact {id, content} creates version 1;
//   - read_artifact {id, version} reads a version, the latest by default;
//   - update_artifact {id, old_text, new_text} replaces one passage of the latest version
//     and saves the result as the next version;
//   - rewrite_artifact {id, content} saves a whole new text as the next version.
//
// update_artifact matches old_text exactly first; when that finds nothing it matches again
// ignoring differences in whitespace (indentation, line breaks, runs of spaces), as models
// often get those wrong when they quote. old_text must match exactly one place: when it
// matches none, or several (the error gives their line numbers), nothing changes and the
// model is told how to fix its call.
//
// Artifacts live in a [Store], one namespace per session (runtime.CallInfo.Session), so one
// session never reads another's. [MemoryStore] keeps them in memory; [DirStore] keeps them
// in a directory, through an os.Root, with ids checked against a strict pattern and paths of
// the store's own making, so nothing a model sends can reach outside it. A version is
// written with an exclusive create, so two concurrent updates cannot both become version N:
// the second is told to read again.
//
// The tools that write are sequential (//tool:sequential): several edits in one turn apply
// in the model's order instead of racing (the store would refuse all but one).
//
// Limits, each with its default and the field that changes it:
//
//   - a version's bytes: 1 MiB ([Toolkit.MaxBytes]); an artifact's versions: 100
//     ([Toolkit.MaxVersions]);
//   - every session together: 64 MiB in memory ([MemoryStore.MaxBytes]), 1 GiB in a
//     directory ([DirStore.MaxBytes]);
//   - one session: a quarter of the store (MaxSessionBytes), so one session cannot fill the
//     store for the others: past it, its saves fail ([ErrSessionFull]) and the model is told
//     so, while other sessions still save;
//   - how long an artifact is kept: [DefaultMaxAge], 24 hours after its latest version was
//     saved (MaxAge; negative keeps artifacts for ever). An expired artifact is gone, and its
//     bytes count no more. A full store ([ErrStoreFull]) therefore fills for a day at most,
//     not for the life of the process.
//
// A long read_artifact result goes to the registry's result store like any other result
// over the size cap.
package artifacts

//go:generate go tool toolgen

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"regexp"
	"sync"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// Artifact is one version of an artifact.
type Artifact struct {
	ID      string
	Version int // 1 for the first
	Latest  int // the latest version when it was read
	Content string
}

// Errors of a Store.
var (
	ErrNotFound = errors.New("artifact not found")
	ErrExists   = errors.New("artifact already exists")
	// ErrConflict: the latest version is not the one the change was based on.
	ErrConflict  = errors.New("artifact changed meanwhile")
	ErrInvalidID = errors.New("invalid artifact id")
)

// Store keeps artifacts and their versions, one namespace per scope (the session).
// Implementations must be safe for concurrent use.
type Store interface {
	// Save stores content as version base+1 of artifact id: base 0 creates the artifact
	// (ErrExists when it exists); otherwise the latest version must be base (ErrConflict when
	// it is not, ErrNotFound when there is no artifact).
	Save(ctx context.Context, scope, id string, base int, content string) error
	// Load returns a version of artifact id, the latest when version is 0 (ErrNotFound when
	// either is missing).
	Load(ctx context.Context, scope, id string, version int) (Artifact, error)
}

// idPattern is what an artifact id may be: a file-name-like word, never "." or "..".
var idPattern = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$`)

// CheckID refuses an id that does not match ^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$ (ErrInvalidID).
func CheckID(id string) error {
	if !idPattern.MatchString(id) {
		return fmt.Errorf("%w %q: use letters, digits, '.', '_' and '-', starting with a letter or digit, at most 64", ErrInvalidID, id)
	}
	return nil
}

// Toolkit holds the store and the limits of the artifact tools. Its zero value keeps
// artifacts in memory.
type Toolkit struct {
	Store       Store // nil: a MemoryStore of the toolkit's own
	MaxBytes    int   // the largest version, in bytes: 0 means 1 MiB
	MaxVersions int   // the most versions of one artifact: 0 means 100

	once sync.Once
	mem  *MemoryStore
}

func (k *Toolkit) store() Store {
	if k.Store != nil {
		return k.Store
	}
	k.once.Do(func() { k.mem = &MemoryStore{} })
	return k.mem
}

// CreateArgs are the arguments of create_artifact.
type CreateArgs struct {
	// ID names the artifact, like a file name, e.g. report.md.
	ID string `json:"id" tool:"pattern='^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'"`
	// Content is the artifact's text.
	Content string `json:"content"`
}

// CreateArtifact creates a new artifact, a document kept with all its versions.
//
//tool:name create_artifact
//tool:sequential
//tool:timeout 10s
//tool:related update_artifact
//tool:example {"id":"report.md","content":"# Findings\n\nNone yet.\n"}
func (k *Toolkit) CreateArtifact(ctx context.Context, args CreateArgs) (string, error) {
	if err := k.save(ctx, args.ID, 0, args.Content); err != nil {
		return "", err
	}
	return fmt.Sprintf("Created artifact %s (version 1, %s).", args.ID, plural.Of(len(args.Content), "byte")), nil
}

// ReadArgs are the arguments of read_artifact.
type ReadArgs struct {
	// ID of the artifact.
	ID string `json:"id" tool:"pattern='^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'"`
	// Version to read; 0 reads the latest.
	Version int `json:"version,omitempty" tool:"default=0,minimum=0"`
}

// ReadArtifact reads an artifact: its latest version, or an older one.
//
//tool:name read_artifact
//tool:hints readonly,idempotent
//tool:timeout 10s
//tool:example {"id":"report.md"}
//tool:example "An older version" {"id":"report.md","version":1}
func (k *Toolkit) ReadArtifact(ctx context.Context, args ReadArgs) (string, error) {
	a, err := k.load(ctx, args.ID, args.Version)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Artifact %s, version %d of %d:\n%s", a.ID, a.Version, a.Latest, a.Content), nil
}

// UpdateArgs are the arguments of update_artifact.
type UpdateArgs struct {
	// ID of the artifact.
	ID string `json:"id" tool:"pattern='^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'"`
	// OldText is the passage to replace, quoted from the latest version with enough
	// context to match one place only.
	OldText string `json:"old_text" tool:"minLength=1"`
	// NewText replaces it; empty deletes the passage.
	NewText string `json:"new_text"`
}

// UpdateArtifact replaces one passage of an artifact, saving the result as a new version.
//
// Quote old_text from the latest version, with enough around it to match one place only;
// differences in whitespace are tolerated. For large changes use rewrite_artifact.
//
//tool:name update_artifact
//tool:sequential
//tool:timeout 10s
//tool:example {"id":"report.md","old_text":"None yet.","new_text":"Two libraries qualify."}
func (k *Toolkit) UpdateArtifact(ctx context.Context, args UpdateArgs) (string, error) {
	a, err := k.load(ctx, args.ID, 0)
	if err != nil {
		return "", err
	}
	text, how, err := replaceOnce(a.Content, args.OldText, args.NewText)
	if err != nil {
		return "", runtime.ModelErrorf(runtime.KindInvalidInput, "old_text does not fit artifact %s (version %d): %v", a.ID, a.Version, err)
	}
	if err := k.save(ctx, a.ID, a.Version, text); err != nil {
		return "", err
	}
	return fmt.Sprintf("Updated artifact %s to version %d%s.", a.ID, a.Version+1, how), nil
}

// RewriteArgs are the arguments of rewrite_artifact.
type RewriteArgs struct {
	// ID of the artifact.
	ID string `json:"id" tool:"pattern='^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$'"`
	// Content is the whole new text.
	Content string `json:"content"`
}

// RewriteArtifact replaces the whole text of an artifact, saving it as a new version.
//
//tool:name rewrite_artifact
//tool:sequential
//tool:timeout 10s
//tool:example {"id":"report.md","content":"# Findings\n\nRewritten.\n"}
func (k *Toolkit) RewriteArtifact(ctx context.Context, args RewriteArgs) (string, error) {
	a, err := k.load(ctx, args.ID, 0)
	if err != nil {
		return "", err
	}
	if err := k.save(ctx, a.ID, a.Version, args.Content); err != nil {
		return "", err
	}
	return fmt.Sprintf("Rewrote artifact %s: version %d, %d bytes.", a.ID, a.Version+1, len(args.Content)), nil
}

// save checks the limits, then stores content as version base+1.
func (k *Toolkit) save(ctx context.Context, id string, base int, content string) error {
	if limit := cmp.Or(k.MaxBytes, 1<<20); len(content) > limit {
		return runtime.ModelErrorf(runtime.KindLimit, "artifact %s would be %d bytes, over the limit of %d: split it into several artifacts", id, len(content), limit)
	}
	if limit := cmp.Or(k.MaxVersions, 100); base >= limit {
		return runtime.ModelErrorf(runtime.KindLimit, "artifact %s has %s, the most allowed: create a new artifact to go on", id, plural.Of(base, "version"))
	}
	info, _ := runtime.CallInfoFrom(ctx)
	return modelError(id, k.store().Save(ctx, info.Session, id, base, content))
}

func (k *Toolkit) load(ctx context.Context, id string, version int) (Artifact, error) {
	info, _ := runtime.CallInfoFrom(ctx)
	a, err := k.store().Load(ctx, info.Session, id, version)
	if err != nil && version > 0 && errors.Is(err, ErrNotFound) {
		if latest, lerr := k.store().Load(ctx, info.Session, id, 0); lerr == nil {
			return a, runtime.ModelErrorf(runtime.KindNotFound, "artifact %s has no version %d: its versions are 1 to %d", id, version, latest.Version)
		}
	}
	return a, modelError(id, err)
}

// modelError words a store's error for the model.
func modelError(id string, err error) error {
	switch {
	case err == nil:
		return nil
	case errors.Is(err, ErrNotFound):
		return runtime.ModelErrorf(runtime.KindNotFound, "no artifact %s: create it with create_artifact", id)
	case errors.Is(err, ErrExists):
		return runtime.ModelErrorf(runtime.KindInvalidInput, "artifact %s already exists: change it with update_artifact or rewrite_artifact, or pick another id", id)
	case errors.Is(err, ErrConflict):
		return runtime.ModelErrorf(runtime.KindInvalidInput, "artifact %s changed while this call ran: read it again and redo the change", id)
	case errors.Is(err, ErrInvalidID):
		return runtime.ModelErrorf(runtime.KindInvalidInput, "%v", err)
	case errors.Is(err, ErrSessionFull):
		return runtime.ModelErrorf(runtime.KindLimit, "artifact %s was not saved: %w. Room comes back as this session's older artifacts expire; until then, work with the artifacts you have", id, err)
	case errors.Is(err, ErrStoreFull):
		return runtime.ModelErrorf(runtime.KindLimit, "artifact %s was not saved: %w. Room comes back as older artifacts expire; try again later", id, err)
	}
	// A store's own failure may name host paths: the model reads only that it failed.
	return &runtime.ModelError{Kind: runtime.KindUnavailable, Message: "the artifact store failed; try again later", Err: err}
}
