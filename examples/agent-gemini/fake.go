package main

import (
	"encoding/json"
	"fmt"
	"net/http"
)

// fakeModel stands in for generateContent: the first turn calls get_weather three times in
// parallel, the second checks that the last content answers every call, in order, and
// answers.
type fakeModel struct{}

func (fakeModel) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Tools    []json.RawMessage `json:"tools"`
		Contents []struct {
			Role  string `json:"role"`
			Parts []struct {
				FunctionResponse *struct {
					ID       string         `json:"id"`
					Name     string         `json:"name"`
					Response map[string]any `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
	}
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil || len(req.Tools) == 0 || len(req.Contents) == 0 {
		http.Error(w, `{"error":{"code":400,"message":"expected contents and tools"}}`, http.StatusBadRequest)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	if len(req.Contents) == 1 {
		fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[
  {"functionCall":{"id":"fc_1","name":"get_weather","args":{"city":"Tokyo"}},"thoughtSignature":"ZmFrZQ=="},
  {"functionCall":{"id":"fc_2","name":"get_weather","args":{"city":"Paris","unit":"kelvin"}}},
  {"functionCall":{"id":"fc_3","name":"get_weather","args":{"city":"Atlantis"}}}]},"finishReason":"STOP","index":0}]}`)
		return
	}
	last := req.Contents[len(req.Contents)-1]
	ok := last.Role == "user" && len(last.Parts) == 3
	for i, p := range last.Parts {
		want := fmt.Sprintf("fc_%d", i+1)
		ok = ok && p.FunctionResponse != nil && p.FunctionResponse.ID == want && p.FunctionResponse.Name == "get_weather" && len(p.FunctionResponse.Response) > 0
	}
	if !ok {
		http.Error(w, `{"error":{"code":400,"message":"the number of function response parts must equal the number of function call parts"}}`, http.StatusBadRequest)
		return
	}
	fmt.Fprint(w, `{"candidates":[{"content":{"role":"model","parts":[{"text":"Tokyo is partly cloudy; Atlantis has no weather station."}]},"finishReason":"STOP","index":0}]}`)
}
