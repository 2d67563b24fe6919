package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// fakeModel stands in for the Messages API: the first turn calls get_weather three times in
// parallel, the second checks that the last user message answers every tool_use first and
// answers.
type fakeModel struct{}

func (fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role    string `json:"role"`
			Content []struct {
				Type      string `json:"type"`
				ToolUseID string `json:"tool_use_id"`
			} `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Tools) == 0 || len(req.Messages) == 0 {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"expected messages and tools"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if len(req.Messages) == 1 {
		fmt.Fprint(w, `{"id":"msg_fake_1","type":"message","role":"assistant","model":"fake","stop_reason":"tool_use","stop_sequence":null,
 "content":[{"type":"text","text":"Let me check."},
  {"type":"tool_use","id":"toolu_1","name":"get_weather","input":{"city":"Tokyo"}},
  {"type":"tool_use","id":"toolu_2","name":"get_weather","input":{"city":"Paris","unit":"kelvin"}},
  {"type":"tool_use","id":"toolu_3","name":"get_weather","input":{"city":"Atlantis"}}],
 "usage":{"input_tokens":1,"output_tokens":1}}`)
		return
	}
	last := req.Messages[len(req.Messages)-1]
	var ids []string
	for _, b := range last.Content {
		if b.Type != "tool_result" {
			break // tool_result blocks must come first
		}
		ids = append(ids, b.ToolUseID)
	}
	if last.Role != "user" || strings.Join(ids, ",") != "toolu_1,toolu_2,toolu_3" {
		http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"tool_use ids were found without tool_result blocks immediately after"}}`, http.StatusBadRequest)
		return
	}
	fmt.Fprint(w, `{"id":"msg_fake_2","type":"message","role":"assistant","model":"fake","stop_reason":"end_turn","stop_sequence":null,
 "content":[{"type":"text","text":"Tokyo is partly cloudy; Atlantis has no weather station."}],"usage":{"input_tokens":1,"output_tokens":1}}`)
}
