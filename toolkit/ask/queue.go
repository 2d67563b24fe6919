package ask

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// Pending is the effect of a question put in a Queue: the host should show it to the user
// and answer it with Queue.Answer under ID.
type Pending struct {
	ID       string
	Question Question
}

// EffectName is "ask_pending".
func (Pending) EffectName() string { return "ask_pending" }

// ErrNoSuchQuestion is returned by Queue.Answer for an id that is not waiting.
var ErrNoSuchQuestion = errors.New("no such question")

// Queue keeps questions until the host answers them. Its zero value is ready to use; it is
// safe for concurrent use.
type Queue struct {
	// MaxPerSession bounds the questions a session may have waiting or answered but not yet
	// read: 0 means 16. Past it, ask_user answers that too many questions are open.
	MaxPerSession int

	mu    sync.Mutex
	seq   uint64
	items map[string]*queued
}

type queued struct {
	seq    uint64
	q      Question
	answer *Answer
}

// Pending lists the questions waiting for an answer, oldest first.
func (q *Queue) Pending() []Pending {
	q.mu.Lock()
	defer q.mu.Unlock()
	var out []Pending
	for id, it := range q.items {
		if it.answer == nil {
			out = append(out, Pending{ID: id, Question: it.q})
		}
	}
	slices.SortFunc(out, func(a, b Pending) int { return cmp.Compare(q.items[a.ID].seq, q.items[b.ID].seq) })
	return out
}

// Answer records the user's answer to the waiting question id. It refuses an unknown id and
// an answer that does not fit the question (ErrInvalidAnswer); the question then still waits.
func (q *Queue) Answer(id string, a Answer) error {
	q.mu.Lock()
	defer q.mu.Unlock()
	it := q.items[id]
	if it == nil || it.answer != nil {
		return fmt.Errorf("ask: answer %s: %w", id, ErrNoSuchQuestion)
	}
	if err := check(it.q, a); err != nil {
		return err
	}
	a.Choices = slices.Clone(a.Choices)
	it.answer = &a
	return nil
}

// Forget drops every question of session, answered or not: call it when a conversation ends.
func (q *Queue) Forget(session string) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for id, it := range q.items {
		if it.q.Session == session {
			delete(q.items, id)
		}
	}
}

// ask hands out the answer to question, once, or queues it.
func (q *Queue) ask(question Question) (runtime.Result, error) {
	id := questionID(question)
	q.mu.Lock()
	defer q.mu.Unlock()
	if it := q.items[id]; it != nil {
		if it.answer == nil {
			return waiting(id, it.q), nil
		}
		delete(q.items, id)
		return runtime.TextResult(render(*it.answer)), nil
	}
	limit := cmp.Or(q.MaxPerSession, 16)
	open := 0
	for _, it := range q.items {
		if it.q.Session == question.Session {
			open++
		}
	}
	if open >= limit {
		wait, answers := "wait", "their answers"
		if open == 1 {
			wait, answers = "waits", "its answer"
		}
		return runtime.Result{}, runtime.ModelErrorf(runtime.KindLimit,
			"%s already %s for the user: wait for %s before asking more", plural.Of(open, "question"), wait, answers)
	}
	if q.items == nil {
		q.items = make(map[string]*queued)
	}
	q.seq++
	q.items[id] = &queued{seq: q.seq, q: question}
	return waiting(id, question), nil
}

// waiting is the note for the model, and the question for the host.
func waiting(id string, question Question) runtime.Result {
	return runtime.Result{
		Text:    "The question was passed to the user, who has not answered yet. Do not guess the answer: wait, or ask again with exactly the same arguments later to get it.",
		Effects: []runtime.Effect{Pending{ID: id, Question: question}},
	}
}

// questionID names a question by its session and content, so a repeated call finds it.
func questionID(q Question) string {
	h := sha256.New()
	write := func(s string) { fmt.Fprintf(h, "%d:%s", len(s), s) }
	write(q.Session)
	write(q.Question)
	for _, o := range q.Options {
		write(o)
	}
	fmt.Fprintf(h, "|%d|%t", len(q.Options), q.MultiSelect)
	return "q_" + hex.EncodeToString(h.Sum(nil)[:12])
}
