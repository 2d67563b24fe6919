package repair_test

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"reflect"
	"sort"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/repair"
	"github.com/toolgen-go/toolgen/runtime/xmlcall"
)

// corpusCase is one realistic bad call, labelled with what a careful repairer does with it.
type corpusCase struct {
	ID      string `json:"id"`
	Mistake string `json:"mistake"`
	Format  string `json:"format"` // "json": a native call; "xml": a reply for xmlcall
	Tool    string `json:"tool"`   // the tool the model meant
	Name    string `json:"name"`   // the name it wrote, when not Tool
	Args    string `json:"args"`
	Reply   string `json:"reply"`
	// Expect is "repair" (the call means Want and should run with exactly that) or "refuse"
	// (the intent is not certain: nothing runs, and the model is told every problem).
	Expect   string          `json:"expect"`
	Want     json.RawMessage `json:"want"`
	Problems []string        `json:"problems"` // JSON Pointers the feedback must name
	Refusal  string          `json:"refusal"`  // "" (invalid arguments), "not_found", "syntax"
}

func loadCorpus(t *testing.T) []corpusCase {
	t.Helper()
	f, err := os.Open("testdata/corpus.jsonl")
	require.NoError(t, err)
	defer f.Close()
	var cases []corpusCase
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var c corpusCase
		require.NoError(t, json.Unmarshal(sc.Bytes(), &c), sc.Text())
		cases = append(cases, c)
	}
	require.NoError(t, sc.Err())
	return cases
}

// capture records the arguments of every call the registry's tools ran (not merely bound:
// xmlcall binds to collect problems without running), so a test sees exactly what ran.
type capture struct {
	mu    sync.Mutex
	bound []any
}

func (c *capture) take() []any {
	c.mu.Lock()
	defer c.mu.Unlock()
	b := c.bound
	c.bound = nil
	return b
}

func capturing(tools []runtime.Tool, c *capture) []runtime.Tool {
	out := make([]runtime.Tool, len(tools))
	for i, t := range tools {
		bind := t.BindArgs
		t.Bind = func(ctx context.Context, args []byte) (runtime.BoundCall, error) {
			b, err := bind(ctx, args)
			if err != nil {
				return nil, err
			}
			return &recordedRun{BoundCall: b, c: c}, nil
		}
		out[i] = t
	}
	return out
}

type recordedRun struct {
	runtime.BoundCall
	c *capture
}

func (r *recordedRun) Run(ctx context.Context) runtime.Result {
	r.c.mu.Lock()
	r.c.bound = append(r.c.bound, r.Args())
	r.c.mu.Unlock()
	return r.BoundCall.Run(ctx)
}

func corpusTools() []runtime.Tool {
	var tools []runtime.Tool
	tools = append(tools, weather.Tools()...)
	tools = append(tools, new(orders.Service).Tools()...)
	tools = append(tools, new(email.Outbox).Tools()...)
	return tools
}

// TestCorpus runs every bad call of testdata/corpus.jsonl through a registry built
// WithRepair (and xmlcall for replies), and checks it against its label: a call labelled
// repair must run with exactly the arguments the label gives (compared as the decoded Go
// values), a call labelled refuse must not run and its feedback must name every problem the
// label lists. It reports the shares, and fails on any call accepted with a changed meaning.
func TestCorpus(t *testing.T) {
	cases := loadCorpus(t)
	require.GreaterOrEqual(t, len(cases), 200)
	s := scoreCorpus(t, cases, runtime.WithRepair(repair.New()))
	t.Logf("corpus: %d bad calls (%d json, %d xml)", len(cases), count(cases, "json"), count(cases, "xml"))
	t.Logf("repaired correctly: %d of %d labelled repair (%.0f%%)", s.repaired, s.repairs, 100*float64(s.repaired)/float64(s.repairs))
	t.Logf("refused with feedback naming every problem: %d of %d labelled refuse (%.0f%%)", s.refused, s.refusals, 100*float64(s.refused)/float64(s.refusals))
	t.Logf("accepted with a changed meaning: %d", s.changedMeaning)
	if testing.Verbose() {
		var names []string
		for m := range s.byMistake {
			names = append(names, m)
		}
		sort.Strings(names)
		for _, m := range names {
			t.Logf("  %-36s %d/%d", m, s.byMistake[m][0], s.byMistake[m][1])
		}
	}
	assert.Zero(t, s.changedMeaning, "no call may run with arguments other than the ones its label gives")
	assert.Empty(t, s.failures, "every call as labelled:\n%s", strings.Join(s.failures, "\n"))

	// The same corpus without repair: what repair adds. (Two refusals then name fewer
	// problems: a fence or a JSON string hides what is wrong inside it.)
	without := scoreCorpus(t, cases)
	t.Logf("without WithRepair: %d of %d labelled repair run correctly; %d of %d refusals; %d changed meaning",
		without.repaired, without.repairs, without.refused, without.refusals, without.changedMeaning)
	assert.Zero(t, without.changedMeaning)
	assert.Less(t, without.repaired, s.repaired)
}

type corpusScore struct {
	repairs, repaired, refusals, refused, changedMeaning int
	failures                                             []string
	byMistake                                            map[string][2]int
}

// scoreCorpus runs every case through a registry of the example tools built with opts.
func scoreCorpus(t *testing.T, cases []corpusCase, opts ...runtime.Option) corpusScore {
	c := &capture{}
	approve := runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true, By: "corpus"}, nil
	})
	reg := runtime.NewRegistry(append([]runtime.Option{runtime.WithApprover(approve)}, opts...)...)
	require.NoError(t, reg.Add(capturing(corpusTools(), c)...))
	plain := map[string]runtime.Tool{}
	for _, tool := range corpusTools() {
		plain[tool.Name] = tool
	}
	s := corpusScore{byMistake: map[string][2]int{}}
	for _, tc := range cases {
		res, syntax := runCase(t, reg, tc)
		ran := c.take()
		ok, why := judge(t, tc, res, syntax, ran, plain[tc.Tool])
		switch tc.Expect {
		case "repair":
			s.repairs++
			if ok {
				s.repaired++
			}
		case "refuse":
			s.refusals++
			if ok {
				s.refused++
			}
		default:
			t.Fatalf("case %s: unknown label %q", tc.ID, tc.Expect)
		}
		if len(ran) > 0 && !ok {
			s.changedMeaning++
		}
		if !ok {
			s.failures = append(s.failures, fmt.Sprintf("%s (%s, %s): %s\n  result: %s", tc.ID, tc.Mistake, tc.Expect, why, res.Text))
		}
		m := s.byMistake[tc.Mistake]
		m[1]++
		if ok {
			m[0]++
		}
		s.byMistake[tc.Mistake] = m
	}
	return s
}

func count(cases []corpusCase, format string) int {
	n := 0
	for _, c := range cases {
		if c.Format == format {
			n++
		}
	}
	return n
}

// runCase sends the case as the model would, and returns the result of its (only) call.
func runCase(t *testing.T, reg *runtime.Registry, tc corpusCase) (runtime.Result, *xmlcall.SyntaxError) {
	ctx := context.Background()
	if tc.Format == "xml" {
		turn := xmlcall.Run(ctx, reg, tc.Reply)
		require.Len(t, turn.Outcomes, 1, "case %s: one call", tc.ID)
		var syntax *xmlcall.SyntaxError
		errors.As(turn.Err, &syntax)
		return turn.Outcomes[0].Result, syntax
	}
	name := tc.Name
	if name == "" {
		name = tc.Tool
	}
	return reg.Invoke(ctx, runtime.Call{ID: "call_" + tc.ID, Name: name, Args: []byte(tc.Args)}), nil
}

// judge says whether the outcome is what the label says, and why not.
func judge(t *testing.T, tc corpusCase, res runtime.Result, syntax *xmlcall.SyntaxError, ran []any, tool runtime.Tool) (bool, string) {
	if tc.Expect == "repair" {
		if len(ran) != 1 {
			return false, fmt.Sprintf("ran %d times, want once", len(ran))
		}
		want, err := tool.BindArgs(context.Background(), tc.Want)
		require.NoError(t, err, "case %s: its want does not bind", tc.ID)
		if !reflect.DeepEqual(want.Args(), ran[0]) {
			return false, fmt.Sprintf("ran with %+v, want %+v", ran[0], want.Args())
		}
		return true, ""
	}
	if len(ran) > 0 {
		return false, fmt.Sprintf("ran with %+v, want a refusal", ran[0])
	}
	if !res.IsError {
		return false, "not an error result"
	}
	switch tc.Refusal {
	case "not_found":
		return res.Kind == runtime.KindNotFound, "want an unknown-tool result"
	case "syntax":
		return syntax != nil && strings.Contains(res.Text, syntax.Msg), "want a syntax error the model reads"
	}
	var argsErr *runtime.ArgsError
	if !errors.As(res.Err, &argsErr) || res.Kind != runtime.KindInvalidInput {
		return false, "want invalid arguments"
	}
	for _, want := range tc.Problems {
		found := false
		for _, p := range argsErr.Problems {
			found = found || p.Path == want
		}
		if !found || want != "" && !strings.Contains(res.Text, want+": ") {
			return false, fmt.Sprintf("the feedback does not name %q", want)
		}
	}
	return true, ""
}
