package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// toolResult is a tool_result block as the adapter writes it for the model.
type toolResult struct {
	ToolUseID string `json:"tool_use_id"`
	Content   string `json:"content"`
	IsError   bool   `json:"is_error"`
}

// toolUse is a tool_use block the scripted model writes.
type toolUse struct {
	Name  string
	Input any
}

// turn is one scripted reply: it reads the results of the previous turn's calls and returns
// text and calls (no calls: the final answer).
type turn func(results []toolResult) (text string, calls []toolUse, err error)

// scriptedModel replies with its turns in order, as an assistant message in Anthropic's wire
// format.
type scriptedModel struct {
	name  string
	turns []turn
	n     int
}

func (m *scriptedModel) reply(results []toolResult) ([]byte, error) {
	if m.n >= len(m.turns) {
		return nil, fmt.Errorf("%s: the script has no turn %d", m.name, m.n+1)
	}
	for _, r := range results {
		if r.IsError {
			return nil, fmt.Errorf("%s: a call failed: %s", m.name, r.Content)
		}
	}
	text, calls, err := m.turns[m.n](results)
	if err != nil {
		return nil, err
	}
	m.n++
	content := []map[string]any{{"type": "text", "text": text}}
	for i, c := range calls {
		content = append(content, map[string]any{"type": "tool_use", "id": fmt.Sprintf("toolu_%s_%d_%d", m.name, m.n, i), "name": c.Name, "input": c.Input})
	}
	return json.Marshal(map[string]any{"role": "assistant", "content": content})
}

// textOf returns the text blocks of an assistant message.
func textOf(msg []byte) string {
	var m struct {
		Content []struct{ Type, Text string } `json:"content"`
	}
	json.Unmarshal(msg, &m)
	var parts []string
	for _, c := range m.Content {
		if c.Type == "text" {
			parts = append(parts, c.Text)
		}
	}
	return strings.Join(parts, "\n")
}

type todo struct {
	ID      string `json:"id"`
	Content string `json:"content"`
	Status  string `json:"status"`
}

func plan(statuses ...string) map[string]any {
	steps := []string{"Ask which release to cover", "Have the researcher find the release notes", "Read the release notes", "Write the report"}
	list := make([]todo, len(steps))
	for i, s := range steps {
		list[i] = todo{ID: fmt.Sprint(i + 1), Content: s, Status: statuses[i]}
	}
	return map[string]any{"todos": list}
}

func calls(c ...toolUse) []toolUse { return c }

var urlPattern = regexp.MustCompile(`https?://[^\s)"]+`)

// lead is the lead agent's script.
func lead() *scriptedModel {
	var release, notesURL, notes string
	return &scriptedModel{name: "lead", turns: []turn{
		func([]toolResult) (string, []toolUse, error) {
			return "I'll plan first.", calls(toolUse{"write_todos", plan("in_progress", "pending", "pending", "pending")}), nil
		},
		func(r []toolResult) (string, []toolUse, error) {
			if r[0].Content != "" {
				return "", nil, fmt.Errorf("write_todos is effect-only, the model read %q", r[0].Content)
			}
			return "", calls(toolUse{"ask_user", map[string]any{"question": "Which Go release should the report cover?", "options": []string{"Go 1.25", "Go 1.26"}}}), nil
		},
		func(r []toolResult) (string, []toolUse, error) {
			release = strings.TrimPrefix(strings.SplitN(r[0].Content, "\n", 2)[0], "The user chose: ")
			return "Delegating the search.", calls(
				toolUse{"todo_update", map[string]any{"id": "1", "status": "completed"}},
				toolUse{"todo_update", map[string]any{"id": "2", "status": "in_progress"}},
				toolUse{"task", map[string]any{"description": "Find the release notes", "agent": "researcher",
					"prompt": "Find the URL of the official release notes of " + release + " and answer with it."}},
			), nil
		},
		func(r []toolResult) (string, []toolUse, error) {
			notesURL = urlPattern.FindString(r[2].Content)
			if notesURL == "" {
				return "", nil, fmt.Errorf("the researcher found no URL: %q", r[2].Content)
			}
			return "", calls(
				toolUse{"todo_update", map[string]any{"id": "2", "status": "completed"}},
				toolUse{"todo_update", map[string]any{"id": "3", "status": "in_progress"}},
				toolUse{"web_fetch", map[string]any{"url": notesURL}},
			), nil
		},
		func(r []toolResult) (string, []toolUse, error) {
			notes = r[2].Content
			var bullets []string
			for _, line := range strings.Split(notes, "\n") {
				if strings.HasPrefix(line, "- ") || strings.Contains(line, "garbage collector") {
					bullets = append(bullets, "- "+strings.TrimPrefix(line, "- "))
				}
			}
			report := fmt.Sprintf("# %s in brief\n\nSource: %s\n\n%s\n", release, notesURL, strings.Join(bullets, "\n"))
			return "", calls(
				toolUse{"todo_update", map[string]any{"id": "3", "status": "completed"}},
				toolUse{"todo_update", map[string]any{"id": "4", "status": "in_progress"}},
				toolUse{"create_artifact", map[string]any{"id": "report.md", "content": report}},
			), nil
		},
		func([]toolResult) (string, []toolUse, error) {
			return "", calls(toolUse{"write_todos", plan("completed", "completed", "completed", "completed")}), nil
		},
		func([]toolResult) (string, []toolUse, error) {
			return "The report on " + release + " is in the artifact report.md.", nil, nil
		},
	}}
}

// researcher is the sub-agent's script: search, read the best result, answer with its URL.
func researcher() *scriptedModel {
	var found string
	return &scriptedModel{name: "researcher", turns: []turn{
		func([]toolResult) (string, []toolUse, error) {
			return "", calls(toolUse{"web_search", map[string]any{"query": "go 1.26 release notes", "num": 3}}), nil
		},
		func(r []toolResult) (string, []toolUse, error) {
			var res struct {
				Results []struct{ URL string } `json:"results"`
			}
			if err := json.Unmarshal([]byte(r[0].Content), &res); err != nil || len(res.Results) == 0 {
				return "", nil, fmt.Errorf("no search results: %q", r[0].Content)
			}
			found = res.Results[0].URL
			return "", calls(toolUse{"web_fetch", map[string]any{"url": found, "max_bytes": 4096}}), nil
		},
		func(r []toolResult) (string, []toolUse, error) {
			if !strings.Contains(r[0].Content, "# Go 1.26 Release Notes") {
				return "", nil, fmt.Errorf("not the release notes: %q", r[0].Content)
			}
			return "The release notes are at " + found, nil, nil
		},
	}}
}
