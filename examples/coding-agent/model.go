package main

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
)

// scriptedModel plays a model: each turn it reads the tool results of the conversation so
// far and answers with an assistant message in Chat Completions wire JSON, calling tools or
// giving its answer. It checks what it reads, as a model would, and fails when the tools do
// not answer as expected.
type scriptedModel struct {
	turns []func(results map[string]string) (string, error)
	calls int // call ids given so far
}

func newScriptedModel() *scriptedModel {
	m := &scriptedModel{}
	m.turns = []func(map[string]string) (string, error){
		func(map[string]string) (string, error) {
			return m.call(
				"glob", `{"pattern":"**/*.go"}`,
				"grep", `{"pattern":"func Add\\(","glob":"*.go"}`,
			), nil
		},
		func(r map[string]string) (string, error) {
			if !strings.Contains(r["call_2"], "calc.go:5: func Add(a, b int) int {") {
				return "", fmt.Errorf("grep did not find Add: %q", r["call_2"])
			}
			return m.call("read_file", `{"path":"calc.go","offset":5,"limit":3}`, "shell", `{"command":"go test ./...","timeout_ms":120000}`), nil
		},
		func(r map[string]string) (string, error) {
			if !strings.Contains(r["call_3"], "\treturn a - b") || !regexp.MustCompile(`^exit status 1 `).MatchString(r["call_4"]) {
				return "", fmt.Errorf("expected the bug and a failing test, got %q and %q", r["call_3"], r["call_4"])
			}
			return m.call("edit_file", `{"path":"calc.go","old_string":"return a - b","new_string":"return a + b"}`), nil
		},
		func(r map[string]string) (string, error) {
			if !strings.Contains(r["call_5"], "\treturn a + b") {
				return "", fmt.Errorf("the edit did not show the new line: %q", r["call_5"])
			}
			return m.call("shell", `{"command":"go test ./..."}`), nil
		},
		func(r map[string]string) (string, error) {
			if !regexp.MustCompile(`^exit status 0 .*\nok  \texample.com/calc`).MatchString(r["call_6"]) {
				return "", fmt.Errorf("the tests still fail: %q", r["call_6"])
			}
			return `{"role":"assistant","content":"Add subtracted instead of adding (calc.go, line 6). I changed a - b to a + b, and go test passes now."}`, nil
		},
	}
	return m
}

// complete answers the conversation with the next turn of the script. tools is the request's
// "tools" array, which a real model would read.
func (m *scriptedModel) complete(tools []byte, messages []json.RawMessage) (json.RawMessage, error) {
	if !json.Valid(tools) {
		return nil, fmt.Errorf("the tools array is not JSON")
	}
	results := map[string]string{}
	for _, raw := range messages {
		var msg struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    string `json:"content"`
		}
		if err := json.Unmarshal(raw, &msg); err != nil {
			return nil, err
		}
		if msg.Role == "tool" {
			results[msg.ToolCallID] = msg.Content
		}
	}
	if len(m.turns) == 0 {
		return nil, fmt.Errorf("the script has no more turns")
	}
	turn := m.turns[0]
	m.turns = m.turns[1:]
	reply, err := turn(results)
	return json.RawMessage(reply), err
}

// call returns an assistant message calling the tools given as name, arguments pairs.
func (m *scriptedModel) call(nameArgs ...string) string {
	type function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	}
	type toolCall struct {
		ID       string   `json:"id"`
		Type     string   `json:"type"`
		Function function `json:"function"`
	}
	var calls []toolCall
	for i := 0; i+1 < len(nameArgs); i += 2 {
		m.calls++
		calls = append(calls, toolCall{ID: fmt.Sprintf("call_%d", m.calls), Type: "function", Function: function{Name: nameArgs[i], Arguments: nameArgs[i+1]}})
	}
	msg, _ := json.Marshal(map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
	return string(msg)
}
