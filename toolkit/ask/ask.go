// Package ask lets a model ask the user a question: ask_user {question, options,
// multi_select}, and human_input, the same tool under BeamAI's name.
//
// The host answers in one of two ways, chosen by the [Toolkit]'s fields:
//
//   - Synchronously, through an [Answerer]: the call blocks until the user answers (a
//     terminal prompt, a UI dialog, MCP elicitation with toolkit/ask/askmcp), and the model
//     reads the answer as the tool's result. The Answerer must honour ctx; the call's time limit is one hour.
//   - Later, through a [Queue], as approvals do: the call returns at once with a note for the
//     model that the question waits for the user, and a [Pending] effect for the host (also
//     reported to the registry's observer). The host shows the question, records the user's
//     reply with [Queue.Answer], then either invokes the same call again (the usual way: the
//     model never sees the waiting note) or lets the model's own repeated call pick the answer
//     up. A question is identified by its session and its text, options and multi_select, so
//     a repeated call finds its answer whatever its call id; one session never sees another's
//     answers. An answer is handed out once.
//
// With both, the Answerer is asked first and the Queue takes the questions it cannot put to
// a user (it returns [ErrNoUser]). With neither, the tool answers that no user can be asked,
// and the model carries on (fail closed, as approvals do).
//
// The alias human_input is a second tool with the same arguments and handler: the model sees
// both names, and a host that wants only one leaves the other out (runtime.Registry.Subset).
//
// An answer picks among the options (all of them must be among the options, and only one
// unless multi_select), adds free text, or declines; [Queue.Answer] refuses an answer that
// breaks these rules, so the host learns of the mistake, not the model.
package ask

//go:generate go tool toolgen

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Question is what the model asks, with the call it came from.
type Question struct {
	Question    string
	Options     []string // empty: a free-form answer
	MultiSelect bool
	Session     string // the call's session
	CallID      string
}

// Answer is the user's reply.
type Answer struct {
	// Choices are the options picked, each one of Question.Options.
	Choices []string
	// Text is a free-form answer, or a comment beside the choices.
	Text string
	// Declined is set when the user chose not to answer.
	Declined bool
}

// Answerer asks the user a question and waits for the reply.
type Answerer interface {
	Answer(ctx context.Context, q Question) (Answer, error)
}

// AnswererFunc adapts a function to Answerer.
type AnswererFunc func(ctx context.Context, q Question) (Answer, error)

// Answer calls f.
func (f AnswererFunc) Answer(ctx context.Context, q Question) (Answer, error) { return f(ctx, q) }

// Toolkit holds who answers: the Answerer when it can reach a user, else the Queue.
type Toolkit struct {
	Answerer Answerer
	Queue    *Queue
}

// AskArgs are the arguments of ask_user and human_input.
type AskArgs struct {
	// Question for the user: one clear, self-contained question.
	Question string `json:"question" tool:"minLength=1,maxLength=2000"`
	// Options the user picks from; leave it out for a free-form answer.
	Options []string `json:"options,omitempty" tool:"maxItems=20,uniqueItems,minLength=1,maxLength=200"`
	// MultiSelect lets the user pick several options.
	MultiSelect bool `json:"multi_select,omitempty" tool:"default=false"`
}

// AskUser asks the user a question and returns their answer.
//
// Use it when the task cannot go on without a decision or a fact only the user has. Do not
// ask what you can find out with other tools; ask one question at a time.
//
//tool:name ask_user
//tool:timeout 1h
//tool:hints openworld
//tool:example "Pick a database" {"question":"Which database should the service use?","options":["PostgreSQL","SQLite"]}
//tool:example {"question":"What is the name of the staging host?"}
func (k *Toolkit) AskUser(ctx context.Context, args AskArgs) (runtime.Result, error) {
	info, _ := runtime.CallInfoFrom(ctx)
	q := Question{Question: args.Question, Options: args.Options, MultiSelect: args.MultiSelect, Session: info.Session, CallID: info.CallID}
	if k.Answerer != nil {
		a, err := k.Answerer.Answer(ctx, q)
		if err == nil {
			err = check(q, a)
		}
		switch {
		case err == nil:
			return runtime.TextResult(render(a)), nil
		case !errors.Is(err, ErrNoUser):
			return runtime.Result{}, fmt.Errorf("asking the user failed: %w", err)
		}
	}
	if k.Queue != nil {
		return k.Queue.ask(q)
	}
	return runtime.Result{}, runtime.Permanent(runtime.ModelErrorf(runtime.KindUnavailable,
		"no user can be asked here: go on with your best judgement and say which assumptions you made"))
}

// ErrNoUser is what an Answerer returns (wrapped or not) when it cannot reach a user for this
// call, such as an MCP client without elicitation: the question then goes to the Queue, if
// there is one.
var ErrNoUser = errors.New("no user can be asked")

// HumanInput asks the user a question and returns their answer (the same tool as ask_user).
//
//tool:name human_input
//tool:timeout 1h
//tool:hints openworld
//tool:example {"question":"Should the report cover Q3 or Q4?","options":["Q3","Q4"]}
func (k *Toolkit) HumanInput(ctx context.Context, args AskArgs) (runtime.Result, error) {
	return k.AskUser(ctx, args)
}

// render is what the model reads of an answer.
func render(a Answer) string {
	switch {
	case a.Declined:
		return "The user declined to answer."
	case len(a.Choices) > 0 && a.Text != "":
		return fmt.Sprintf("The user chose: %s\nThey added: %s", strings.Join(a.Choices, ", "), a.Text)
	case len(a.Choices) > 0:
		return "The user chose: " + strings.Join(a.Choices, ", ")
	}
	return "The user answered: " + a.Text
}

// ErrInvalidAnswer is wrapped by the error of an answer that does not fit its question.
var ErrInvalidAnswer = errors.New("invalid answer")

// check refuses an answer that does not fit q.
func check(q Question, a Answer) error {
	if a.Declined {
		return nil
	}
	if len(a.Choices) == 0 && a.Text == "" {
		return fmt.Errorf("%w: no choice and no text (set Declined to decline)", ErrInvalidAnswer)
	}
	if len(a.Choices) > 1 && !q.MultiSelect {
		return fmt.Errorf("%w: %d choices for a single-choice question", ErrInvalidAnswer, len(a.Choices))
	}
	for _, c := range a.Choices {
		if !slices.Contains(q.Options, c) {
			return fmt.Errorf("%w: %q is not one of the options", ErrInvalidAnswer, c)
		}
	}
	return nil
}
