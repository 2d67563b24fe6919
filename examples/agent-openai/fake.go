package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// fakeModel stands in for the Chat Completions API: the first turn calls get_weather four
// times in parallel, the second checks that every call got a tool message and answers.
type fakeModel struct{}

func (fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		Messages []struct {
			Role       string `json:"role"`
			ToolCallID string `json:"tool_call_id"`
			Content    any    `json:"content"`
		} `json:"messages"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Tools) == 0 {
		http.Error(w, `{"error":{"message":"expected a JSON request declaring tools"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	answered := map[string]bool{}
	for _, m := range req.Messages {
		if m.Role == "tool" {
			answered[m.ToolCallID] = true
		}
	}
	if len(answered) == 0 {
		fmt.Fprint(w, `{"id":"chatcmpl-fake-1","object":"chat.completion","created":1,"model":"fake",
 "choices":[{"index":0,"finish_reason":"tool_calls","message":{"role":"assistant","content":null,"tool_calls":[
  {"id":"call_1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Tokyo\",\"unit\":null,\"days\":null}"}},
  {"id":"call_2","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":\"kelvin\",\"days\":null}"}},
  {"id":"call_3","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Atlantis\",\"unit\":null,\"days\":null}"}},
  {"id":"call_4","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\",\"unit\":\"celsius\",\"days\":1}"}}]}}]}`)
		return
	}
	var missing []string
	for _, id := range []string{"call_1", "call_2", "call_3", "call_4"} {
		if !answered[id] {
			missing = append(missing, id)
		}
	}
	if len(missing) > 0 {
		http.Error(w, fmt.Sprintf(`{"error":{"message":"tool_call_ids without response messages: %s"}}`, strings.Join(missing, ", ")), http.StatusBadRequest)
		return
	}
	fmt.Fprint(w, `{"id":"chatcmpl-fake-2","object":"chat.completion","created":2,"model":"fake",
 "choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"Tokyo and Paris are partly cloudy; Atlantis has no weather station."}}]}`)
}
