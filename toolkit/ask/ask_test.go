package ask_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/ask"
)

func newRegistry(t *testing.T, k *ask.Toolkit) *runtime.Registry {
	t.Helper()
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(k.Tools()...))
	return reg
}

func invoke(t *testing.T, reg *runtime.Registry, session, name, args string) runtime.Result {
	t.Helper()
	return reg.Invoke(t.Context(), runtime.Call{ID: "call_" + session, Name: name, Args: []byte(args), Session: session})
}

const dbQuestion = `{"question":"Which database?","options":["PostgreSQL","SQLite","MySQL"]}`

func TestSynchronousAnswerer(t *testing.T) {
	var got []ask.Question
	answers := map[string]ask.Answer{
		"Which database?":  {Choices: []string{"SQLite"}},
		"Which features?":  {Choices: []string{"auth", "billing"}, Text: "auth first"},
		"Staging host?":    {Text: "stage-2"},
		"Delete it all?":   {Declined: true},
		"Pick two?":        {Choices: []string{"a", "b"}},
		"Pick a colour?":   {Choices: []string{"purple"}},
		"Answerer broken?": {},
	}
	reg := newRegistry(t, &ask.Toolkit{Answerer: ask.AnswererFunc(func(_ context.Context, q ask.Question) (ask.Answer, error) {
		got = append(got, q)
		if q.Question == "Unreachable?" {
			return ask.Answer{}, errors.New("terminal closed")
		}
		return answers[q.Question], nil
	})})

	for _, c := range []struct{ args, want string }{
		{dbQuestion, "The user chose: SQLite"},
		{`{"question":"Which features?","options":["auth","billing","search"],"multi_select":true}`, "The user chose: auth, billing\nThey added: auth first"},
		{`{"question":"Staging host?"}`, "The user answered: stage-2"},
		{`{"question":"Delete it all?","options":["yes","no"]}`, "The user declined to answer."},
	} {
		res := invoke(t, reg, "s1", "ask_user", c.args)
		require.False(t, res.IsError, res.Text)
		assert.Equal(t, c.want, res.Text)
	}
	assert.Equal(t, ask.Question{Question: "Which database?", Options: []string{"PostgreSQL", "SQLite", "MySQL"}, Session: "s1", CallID: "call_s1"}, got[0])

	// Answers that do not fit the question, and a failing answerer, are errors.
	for args, want := range map[string]string{
		`{"question":"Pick two?","options":["a","b"]}`:    "2 choices for a single-choice question",
		`{"question":"Pick a colour?","options":["red"]}`: `"purple" is not one of the options`,
		`{"question":"Answerer broken?"}`:                 "no choice and no text",
		`{"question":"Unreachable?"}`:                     "asking the user failed: terminal closed",
	} {
		res := invoke(t, reg, "s1", "ask_user", args)
		require.True(t, res.IsError, args)
		assert.Contains(t, res.Text, want)
	}

	// human_input is the same tool under BeamAI's name.
	res := invoke(t, reg, "s1", "human_input", dbQuestion)
	assert.Equal(t, "The user chose: SQLite", res.Text)
}

func TestNobodyToAsk(t *testing.T) {
	res := invoke(t, newRegistry(t, &ask.Toolkit{}), "", "ask_user", dbQuestion)
	require.True(t, res.IsError)
	assert.Equal(t, 1, res.Attempts, "not retried")
	assert.Contains(t, res.Text, "no user can be asked here")
}

func TestArgumentsAreValidated(t *testing.T) {
	reg := newRegistry(t, &ask.Toolkit{Queue: &ask.Queue{}})
	res := invoke(t, reg, "", "ask_user", `{"question":"","options":["a","a"]}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/question: ")
	assert.Contains(t, res.Text, "/options: ", "duplicate options")
	// uniqueItems is judged once every item is valid (an invalid item holds no value to compare).
	res = invoke(t, reg, "", "ask_user", `{"question":"q","options":["a",""]}`)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "/options/1: ")
}

func TestQueue(t *testing.T) {
	queue := &ask.Queue{}
	reg := newRegistry(t, &ask.Toolkit{Queue: queue})

	res := invoke(t, reg, "s1", "ask_user", dbQuestion)
	require.False(t, res.IsError, res.Text)
	assert.Contains(t, res.Text, "has not answered yet")
	require.Len(t, res.Effects, 1)
	pending, ok := res.Effects[0].(ask.Pending)
	require.True(t, ok)
	assert.Equal(t, "Which database?", pending.Question.Question)
	assert.Equal(t, []ask.Pending{pending}, queue.Pending())

	// Asked again before an answer: still waiting, still one question.
	res = invoke(t, reg, "s1", "ask_user", dbQuestion)
	assert.Equal(t, []runtime.Effect{pending}, res.Effects)
	assert.Len(t, queue.Pending(), 1)

	// The host's answer must fit the question.
	require.ErrorIs(t, queue.Answer(pending.ID, ask.Answer{Choices: []string{"Oracle"}}), ask.ErrInvalidAnswer)
	require.ErrorIs(t, queue.Answer("q_nope", ask.Answer{Text: "x"}), ask.ErrNoSuchQuestion)
	require.NoError(t, queue.Answer(pending.ID, ask.Answer{Choices: []string{"PostgreSQL"}}))
	require.ErrorIs(t, queue.Answer(pending.ID, ask.Answer{Text: "again"}), ask.ErrNoSuchQuestion, "answered once")
	assert.Empty(t, queue.Pending())

	// Another session asking the same question does not get this session's answer.
	other := invoke(t, reg, "s2", "ask_user", dbQuestion)
	assert.Contains(t, other.Text, "has not answered yet")

	// The repeated call gets the answer, once; asking again queues a new question.
	res = invoke(t, reg, "s1", "ask_user", dbQuestion)
	assert.Equal(t, "The user chose: PostgreSQL", res.Text)
	assert.Empty(t, res.Effects)
	res = invoke(t, reg, "s1", "ask_user", dbQuestion)
	assert.Contains(t, res.Text, "has not answered yet")

	queue.Forget("s1")
	queue.Forget("s2")
	assert.Empty(t, queue.Pending())
}

func TestQueueLimitPerSession(t *testing.T) {
	reg := newRegistry(t, &ask.Toolkit{Queue: &ask.Queue{MaxPerSession: 2}})
	for i := range 2 {
		res := invoke(t, reg, "s", "ask_user", fmt.Sprintf(`{"question":"q%d?"}`, i))
		require.False(t, res.IsError, res.Text)
	}
	res := invoke(t, reg, "s", "ask_user", `{"question":"one more?"}`)
	require.True(t, res.IsError)
	assert.Equal(t, runtime.KindLimit, res.Kind)
	assert.False(t, invoke(t, reg, "other", "ask_user", `{"question":"one more?"}`).IsError, "limits are per session")
}

// An Answerer that cannot reach a user hands the question to the Queue.
func TestAnswererFallsBackToTheQueue(t *testing.T) {
	unreachable := ask.AnswererFunc(func(context.Context, ask.Question) (ask.Answer, error) {
		return ask.Answer{}, fmt.Errorf("client without elicitation: %w", ask.ErrNoUser)
	})
	queue := &ask.Queue{}
	res := invoke(t, newRegistry(t, &ask.Toolkit{Answerer: unreachable, Queue: queue}), "s", "ask_user", dbQuestion)
	require.False(t, res.IsError, res.Text)
	assert.Len(t, queue.Pending(), 1)

	res = invoke(t, newRegistry(t, &ask.Toolkit{Answerer: unreachable}), "s", "ask_user", dbQuestion)
	require.True(t, res.IsError)
	assert.Contains(t, res.Text, "no user can be asked here")
}
