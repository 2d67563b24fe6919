// Package compact gives a model compact_conversation: a way to ask the host to shorten the
// conversation when it grows long, keeping what matters for the work ahead.
//
// The toolkit embeds no model and keeps no history: the call is effect-only. The model reads
// nothing back; the host gets a [Request] in runtime.Result.Effects (also reported to the
// registry's observer as a runtime.EventEffect) and does the compaction itself, typically by
// asking a model to summarize the history with the request's focus and replacing the older
// messages with that summary:
//
//	for _, e := range res.Effects {
//		if r, ok := e.(compact.Request); ok {
//			history = summarize(ctx, history, r.Focus)
//		}
//	}
//
//	reg.Add(compact.Tools()...)
package compact

//go:generate go tool toolgen

import (
	"context"

	"github.com/toolgen-go/toolgen/runtime"
)

// Request is the effect of compact_conversation: the host should compact the conversation.
type Request struct {
	// Focus is what the summary must keep, in the model's words; "" when it gave none.
	Focus string
}

// EffectName is "compact_request".
func (Request) EffectName() string { return "compact_request" }

// CompactArgs are the arguments of compact_conversation.
type CompactArgs struct {
	// Focus says what the summary must keep, e.g. "the failing test and the files changed";
	// empty leaves it to the host.
	Focus string `json:"focus,omitempty" tool:"default='',maxLength=2000"`
}

// CompactConversation asks for the conversation so far to be summarized, to free context.
//
// Call it when the conversation has grown long and older turns are no longer needed word for
// word. The host replaces them with a summary that keeps what focus names.
//
//tool:name compact_conversation
//tool:hints idempotent
//tool:timeout 5s
//tool:sequential
//tool:example {"focus":"the open bugs and the decisions made so far"}
func CompactConversation(_ context.Context, args CompactArgs) (runtime.Result, error) {
	return runtime.EffectResult(Request(args)), nil
}
