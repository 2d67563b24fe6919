package gemini

import (
	"encoding/json"
	"fmt"

	"google.golang.org/genai"

	"github.com/toolgen-go/toolgen/runtime"
)

// Calls returns function calls as calls, in order (pass resp.FunctionCalls()). Call.ID is
// the call's id, empty when the model gave none; the answer is then matched by name and
// order.
func Calls(fcs []*genai.FunctionCall) ([]runtime.Call, error) {
	calls := make([]runtime.Call, 0, len(fcs))
	for _, fc := range fcs {
		if fc == nil {
			continue
		}
		args := []byte("{}")
		if fc.Args != nil {
			var err error
			if args, err = json.Marshal(fc.Args); err != nil {
				return nil, fmt.Errorf("gemini: arguments of %s: %w", fc.Name, err)
			}
		}
		calls = append(calls, runtime.Call{ID: fc.ID, Name: fc.Name, Args: args})
	}
	return calls, nil
}

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
// candidate) or of one Content, given as wire JSON, in order.
func ParseCalls(data []byte) ([]runtime.Call, error) {
	var doc struct {
		wireContent
		Candidates []struct {
			Content wireContent `json:"content"`
		} `json:"candidates"`
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
	return calls, nil
}
