package tooleval

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/openai"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

// Case is one user request and the call it should produce.
type Case struct {
	// Request is what the user says.
	Request string `json:"request"`
	// Tool is the tool the model should call.
	Tool string `json:"tool"`
	// Args, when set, are members the call's arguments must have, each with this JSON value.
	Args json.RawMessage `json:"args,omitempty"`
}

// MaxCases bounds a case file; MaxResponseBytes a model's answer to one case.
const (
	MaxCases         = 10000
	MaxResponseBytes = 4 << 20
)

// LoadCases reads cases as a JSON array or as JSON lines. Every case needs a request and a
// tool; the error names each one that lacks them, by its position.
func LoadCases(r io.Reader) ([]Case, error) {
	data, err := io.ReadAll(io.LimitReader(r, 64<<20))
	if err != nil {
		return nil, err
	}
	var cases []Case
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '[' {
		if err := json.Unmarshal(trimmed, &cases); err != nil {
			return nil, fmt.Errorf("tooleval: cases: %w", err)
		}
	} else {
		sc := bufio.NewScanner(bytes.NewReader(data))
		sc.Buffer(nil, 1<<20)
		for line := 1; sc.Scan(); line++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var c Case
			if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
				return nil, fmt.Errorf("tooleval: cases: line %d: %w", line, err)
			}
			cases = append(cases, c)
		}
		if err := sc.Err(); err != nil {
			return nil, fmt.Errorf("tooleval: cases: %w", err)
		}
	}
	if len(cases) > MaxCases {
		return nil, fmt.Errorf("tooleval: %d cases, more than %d", len(cases), MaxCases)
	}
	var errs []error
	for i, c := range cases {
		if c.Request == "" || c.Tool == "" {
			errs = append(errs, fmt.Errorf("case %d: needs both \"request\" and \"tool\"", i+1))
		}
	}
	if len(errs) > 0 {
		return nil, fmt.Errorf("tooleval: cases: %w", errors.Join(errs...))
	}
	return cases, nil
}

// Model is an OpenAI-compatible Chat Completions endpoint.
type Model struct {
	// BaseURL is the API's root, such as https://api.openai.com/v1; requests go to
	// BaseURL + "/chat/completions".
	BaseURL string
	// APIKey is sent as a bearer token when set.
	APIKey string
	// Name is the request's "model".
	Name string
	// System, when set, is the system message of every request (your agent's own prompt).
	System string
	// Client sends the requests (http.DefaultClient when nil).
	Client *http.Client
	// Timeout bounds each case's request (one minute when zero).
	Timeout time.Duration
}

// Outcome is what the model did with one case.
type Outcome struct {
	Case Case `json:"case"`
	// Chosen is the first tool the model called, "" when it answered without a call.
	Chosen string `json:"chosen"`
	// Arguments are the call's arguments as the model wrote them.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// Valid: the chosen tool accepts the arguments. ArgsMatch: they hold the case's Args.
	Valid     bool `json:"valid"`
	ArgsMatch bool `json:"args_match"`
	// Problem says what was wrong with the arguments, or why the case could not be asked.
	Problem string `json:"problem,omitempty"`
}

// Right reports whether the model chose the case's tool with valid arguments that match.
func (o Outcome) Right() bool { return o.Chosen == o.Case.Tool && o.Valid && o.ArgsMatch }

// ToolScore counts one tool's cases.
type ToolScore struct {
	Tool  string `json:"tool"`
	Cases int    `json:"cases"`
	// Chosen: the tool was called; Valid: with arguments it accepts; Right: and matching.
	Chosen int `json:"chosen"`
	Valid  int `json:"valid"`
	Right  int `json:"right"`
	// TakenFor counts, by tool, the calls made instead of this one ("" for no call).
	TakenFor map[string]int `json:"taken_for,omitempty"`
}

// Report is a run's result.
type Report struct {
	Model    string      `json:"model"`
	Tools    []ToolScore `json:"tools"`
	Outcomes []Outcome   `json:"outcomes"`
	// Similar lists the pairs of tools SimilarDescriptions finds too close.
	Similar []Similar `json:"similar,omitempty"`
}

// Run asks the model every case, one request each, with the registry's tools declared as
// OpenAI function tools, and scores the first call of each answer. A case whose request
// fails (the endpoint down, an HTTP error, an answer that is not a chat completion) is an
// outcome with its Problem and no choice; Run itself fails only when the tools cannot be
// declared or ctx ends.
func Run(ctx context.Context, reg *runtime.Registry, cases []Case, model Model) (*Report, error) {
	tools := reg.Tools()
	declared, err := openai.ChatToolsJSON(tools)
	if err != nil {
		return nil, err
	}
	report := &Report{Model: model.Name, Similar: SimilarDescriptions(tools, DefaultSimilarity)}
	for _, c := range cases {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		report.Outcomes = append(report.Outcomes, judge(ctx, reg, c, model, declared))
	}
	report.Tools = score(report.Outcomes)
	return report, nil
}

func judge(ctx context.Context, reg *runtime.Registry, c Case, model Model, declared []byte) Outcome {
	out := Outcome{Case: c}
	message, err := model.ask(ctx, c.Request, declared)
	if err != nil {
		out.Problem = err.Error()
		return out
	}
	calls, err := openai.ParseChatCalls(message)
	if err != nil {
		out.Problem = err.Error()
		return out
	}
	if len(calls) == 0 {
		out.Problem = "the model answered without calling a tool"
		return out
	}
	call := calls[0]
	out.Chosen, out.Arguments = call.Name, json.RawMessage(call.Args)
	tool, ok := reg.Tool(call.Name)
	if !ok {
		out.Problem = fmt.Sprintf("the model called %q, which the registry does not have", call.Name)
		return out
	}
	args := []byte(call.Args)
	if v, ok := tool.Variant(variant.OpenAI); ok {
		if restored, err := v.Restore(args); err == nil {
			args = restored
		}
	}
	if len(bytes.TrimSpace(args)) == 0 || string(bytes.TrimSpace(args)) == "null" {
		args = []byte("{}")
	}
	if _, err := tool.BindArgs(ctx, args); err != nil && !errors.Is(err, runtime.ErrNotBindable) {
		out.Problem = err.Error()
		return out
	}
	out.Valid = true
	out.ArgsMatch, out.Problem = argsMatch(c.Args, args)
	return out
}

// argsMatch reports whether every member of want has the same JSON value in got.
func argsMatch(want json.RawMessage, got []byte) (bool, string) {
	if len(want) == 0 {
		return true, ""
	}
	var w, g map[string]any
	if err := json.Unmarshal(want, &w); err != nil {
		return false, "the case's args are not a JSON object"
	}
	if err := json.Unmarshal(got, &g); err != nil {
		return false, "the call's arguments are not a JSON object"
	}
	var differ []string
	for k, wv := range w {
		wj, _ := json.Marshal(wv)
		gj, _ := json.Marshal(g[k])
		if _, ok := g[k]; !ok || !bytes.Equal(wj, gj) {
			differ = append(differ, fmt.Sprintf("%s: want %s, got %s", k, wj, gj))
		}
	}
	if len(differ) == 0 {
		return true, ""
	}
	sort.Strings(differ)
	return false, "arguments differ: " + strings.Join(differ, "; ")
}

// ask sends one request and returns the first choice's message.
func (m Model) ask(ctx context.Context, request string, tools []byte) ([]byte, error) {
	timeout := m.Timeout
	if timeout <= 0 {
		timeout = time.Minute
	}
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	var messages []message
	if m.System != "" {
		messages = append(messages, message{"system", m.System})
	}
	body, err := json.Marshal(struct {
		Model    string          `json:"model"`
		Messages []message       `json:"messages"`
		Tools    json.RawMessage `json:"tools"`
	}{m.Name, append(messages, message{"user", request}), tools})
	if err != nil {
		return nil, err
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, strings.TrimSuffix(m.BaseURL, "/")+"/chat/completions", bytes.NewReader(body))
	if err != nil {
		return nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	if m.APIKey != "" {
		req.Header.Set("Authorization", "Bearer "+m.APIKey)
	}
	client := m.Client
	if client == nil {
		client = http.DefaultClient
	}
	resp, err := client.Do(req)
	if err != nil {
		return nil, fmt.Errorf("the model's endpoint: %w", err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, MaxResponseBytes+1))
	if err != nil {
		return nil, fmt.Errorf("the model's endpoint: %w", err)
	}
	if len(data) > MaxResponseBytes {
		return nil, fmt.Errorf("the model's answer is over %d bytes", MaxResponseBytes)
	}
	if resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("the model's endpoint answered %s", resp.Status)
	}
	var completion struct {
		Choices []struct {
			Message json.RawMessage `json:"message"`
		} `json:"choices"`
	}
	if err := json.Unmarshal(data, &completion); err != nil || len(completion.Choices) == 0 {
		return nil, errors.New("the model's answer is not a chat completion with a choice")
	}
	return completion.Choices[0].Message, nil
}

func score(outcomes []Outcome) []ToolScore {
	byTool := map[string]*ToolScore{}
	for _, o := range outcomes {
		s := byTool[o.Case.Tool]
		if s == nil {
			s = &ToolScore{Tool: o.Case.Tool}
			byTool[o.Case.Tool] = s
		}
		s.Cases++
		if o.Chosen != o.Case.Tool {
			if s.TakenFor == nil {
				s.TakenFor = map[string]int{}
			}
			s.TakenFor[o.Chosen]++
			continue
		}
		s.Chosen++
		if o.Valid {
			s.Valid++
		}
		if o.Right() {
			s.Right++
		}
	}
	scores := make([]ToolScore, 0, len(byTool))
	for _, s := range byTool {
		scores = append(scores, *s)
	}
	sort.Slice(scores, func(i, j int) bool { return scores[i].Tool < scores[j].Tool })
	return scores
}

// Table renders the report for a terminal: one row per tool, then the confusions and the
// similar pairs.
func (r *Report) Table() string {
	var b strings.Builder
	w := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	fmt.Fprintln(w, "TOOL\tCASES\tCHOSEN\tVALID ARGS\tRIGHT\tTAKEN FOR")
	for _, s := range r.Tools {
		fmt.Fprintf(w, "%s\t%d\t%d\t%d\t%d\t%s\n", s.Tool, s.Cases, s.Chosen, s.Valid, s.Right, takenFor(s.TakenFor))
	}
	_ = w.Flush()
	for _, p := range r.Similar {
		fmt.Fprintf(&b, "similar: %s and %s (%.2f): %s\n", p.A, p.B, p.Score, p.Advice())
	}
	return b.String()
}

func takenFor(m map[string]int) string {
	parts := make([]string, 0, len(m))
	for tool, n := range m {
		if tool == "" {
			tool = "(no call)"
		}
		parts = append(parts, fmt.Sprintf("%s ×%d", tool, n))
	}
	sort.Strings(parts)
	return strings.Join(parts, ", ")
}
