package gemini

import (
	"encoding/json"
	"fmt"

	"github.com/toolgen-go/toolgen/runtime"
)

// wireContent is the part of a Content that carries calls.
type wireContent struct {
	Parts []struct {
		FunctionCall *struct {
			ID   string          `json:"id"`
			Name string          `json:"name"`
			Args json.RawMessage `json:"args"`
		} `json:"functionCall"`
	} `json:"parts"`
}

// ParseCalls returns the function calls of a generateContent response (from its first
// candidate) or of one Content, given as wire JSON, in order. From a response, each call's Run
// holds its modelVersion and usageMetadata (promptTokenCount; candidatesTokenCount with
// thoughtsTokenCount), one RunInfo shared by the calls; join the host's run to it with
// RunInfo.With.
func ParseCalls(data []byte) ([]runtime.Call, error) {
	var doc struct {
		wireContent
		Candidates []struct {
			Content wireContent `json:"content"`
		} `json:"candidates"`
		ModelVersion string `json:"modelVersion"`
		Usage        struct {
			Prompt     int64 `json:"promptTokenCount"`
			Candidates int64 `json:"candidatesTokenCount"`
			Thoughts   int64 `json:"thoughtsTokenCount"`
		} `json:"usageMetadata"`
	}
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("gemini: parsing a response: %w", err)
	}
	content := doc.wireContent
	if len(doc.Candidates) > 0 {
		content = doc.Candidates[0].Content
	}
	var calls []runtime.Call
	for _, p := range content.Parts {
		if fc := p.FunctionCall; fc != nil {
			args := fc.Args
			if len(args) == 0 {
				args = json.RawMessage("{}")
			}
			calls = append(calls, runtime.Call{ID: fc.ID, Name: fc.Name, Args: args})
		}
	}
	if run := (runtime.RunInfo{Model: doc.ModelVersion, InputTokens: doc.Usage.Prompt, OutputTokens: doc.Usage.Candidates + doc.Usage.Thoughts}); run != (runtime.RunInfo{}) {
		for i := range calls {
			calls[i].Run = &run
		}
	}
	return calls, nil
}
