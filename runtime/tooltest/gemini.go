package tooltest

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"
)

// GeminiModel starts a scripted model speaking the Gemini API (POST
// {URL}/v1beta/models/MODEL:generateContent, or :streamGenerateContent?alt=sse streamed), for
// an agent whose genai client has Model.URL as its base URL. Gemini names calls by name: a
// functionCall carries an id only when the script sets one, and a functionResponse answers
// a call by its id or, without one, by its name. Args must be JSON objects, as the API sends
// them. See Model for what fails the test.
func GeminiModel(t testing.TB, turns ...Turn) *Model {
	return newModel(t, geminiAPI{}, turns)
}

// geminiAPI is the Gemini API's generateContent.
type geminiAPI struct{}

func (geminiAPI) name() string         { return "Gemini" }
func (geminiAPI) defaultID(int) string { return "" }
func (geminiAPI) objectArgs() bool     { return true }
func (geminiAPI) accepts(path string) bool {
	return strings.HasSuffix(path, ":generateContent") || strings.HasSuffix(path, ":streamGenerateContent")
}

func (geminiAPI) writeError(w http.ResponseWriter, status int, message string) {
	writeJSON(w, status, map[string]any{"error": map[string]any{"code": status, "message": message, "status": "INVALID_ARGUMENT"}})
}

func (geminiAPI) parse(path string, body []byte) (Request, error) {
	var doc struct {
		Contents []struct {
			Parts []struct {
				FunctionResponse *struct {
					ID       string          `json:"id"`
					Name     string          `json:"name"`
					Response json.RawMessage `json:"response"`
				} `json:"functionResponse"`
			} `json:"parts"`
		} `json:"contents"`
		Tools []struct {
			FunctionDeclarations []struct {
				Name string `json:"name"`
			} `json:"functionDeclarations"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		return Request{}, err
	}
	model, _, _ := strings.Cut(path[strings.LastIndex(path, "/")+1:], ":")
	req := Request{Path: path, Body: body, Model: model, Stream: strings.HasSuffix(path, ":streamGenerateContent")}
	for _, tool := range doc.Tools {
		for _, decl := range tool.FunctionDeclarations {
			req.Tools = append(req.Tools, decl.Name)
		}
	}
	for _, content := range doc.Contents {
		for _, part := range content.Parts {
			if fr := part.FunctionResponse; fr != nil {
				req.ToolResults = append(req.ToolResults, ToolResult{CallID: fr.ID, Name: fr.Name, Content: string(fr.Response)})
			}
		}
	}
	return req, nil
}

func (geminiAPI) answer(w http.ResponseWriter, req Request, turn Turn, n int) {
	var parts []any
	if turn.Text != "" {
		parts = append(parts, map[string]any{"text": turn.Text})
	}
	for _, c := range turn.Calls {
		call := map[string]any{"name": c.Name, "args": json.RawMessage(c.Args)}
		if c.ID != "" {
			call["id"] = c.ID
		}
		parts = append(parts, map[string]any{"functionCall": call})
	}
	if parts == nil {
		parts = []any{}
	}
	response := map[string]any{
		"candidates":    []any{map[string]any{"content": map[string]any{"role": "model", "parts": parts}, "finishReason": "STOP", "index": 0}},
		"usageMetadata": map[string]int{"promptTokenCount": 1, "candidatesTokenCount": 1, "totalTokenCount": 2},
		"modelVersion":  req.Model,
		"responseId":    fmt.Sprintf("tooltest-%d", n),
	}
	if req.Stream {
		writeSSE(w, "", response)
		return
	}
	writeJSON(w, http.StatusOK, response)
}
