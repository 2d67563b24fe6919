// Package everything is what the official MCP conformance suite (@modelcontextprotocol/conformance)
// asks a server to serve, written as toolgen tools, prompts and resources: annotated funcs
// with typed arguments, served by runtime/mcp. The names, texts and content are those the
// suite's scenarios check (its examples/servers/typescript/everything-server.ts).
//
//tool:lint -snake-case,-optional-default,-parameter-description
//lint:file-ignore SA1019 the suite tests sampling and roots, which protocol 2026-07-28 deprecates (SEP-2577) but still has.
package everything

//go:generate go tool toolgen

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolgen-go/toolgen/runtime"
	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
)

// A 1×1 red PNG and a minimal WAV, as the suite sends them.
var (
	pngPixel, _ = base64.StdEncoding.DecodeString("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==")
	wavSound, _ = base64.StdEncoding.DecodeString("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")
)

// ---- Tools

// TestSimpleText tests simple text content response.
//
//tool:name test_simple_text
func TestSimpleText(ctx context.Context) (string, error) {
	return "This is a simple text response for testing.", nil
}

// TestImageContent tests image content response.
//
//tool:name test_image_content
func TestImageContent(ctx context.Context) (runtime.Result, error) {
	return runtime.Result{Parts: []runtime.Part{runtime.ImagePart("image/png", pngPixel)}}, nil
}

// TestAudioContent tests audio content response.
//
//tool:name test_audio_content
func TestAudioContent(ctx context.Context) (runtime.Result, error) {
	return runtime.Result{Parts: []runtime.Part{runtime.AudioPart("audio/wav", wavSound)}}, nil
}

// TestEmbeddedResource tests embedded resource content response.
//
//tool:name test_embedded_resource
func TestEmbeddedResource(ctx context.Context) (runtime.Result, error) {
	return runtime.Result{Parts: []runtime.Part{runtime.TextResourcePart("test://embedded-resource", "text/plain", "This is an embedded resource content.")}}, nil
}

// TestMultipleContentTypes tests response with multiple content types (text, image, resource).
//
//tool:name test_multiple_content_types
func TestMultipleContentTypes(ctx context.Context) (runtime.Result, error) {
	return runtime.Result{Text: "Multiple content types test:", Parts: []runtime.Part{
		runtime.ImagePart("image/png", pngPixel),
		runtime.TextResourcePart("test://mixed-content-resource", "application/json", `{"test":"data","value":123}`),
	}}, nil
}

// TestToolWithLogging tests tool that emits log messages during execution.
//
//tool:name test_tool_with_logging
func TestToolWithLogging(ctx context.Context) (string, error) {
	for _, message := range []string{"Tool execution started", "Tool processing data", "Tool execution completed"} {
		if err := toolmcp.Log(ctx, "info", message); err != nil {
			return "", err
		}
	}
	return "Tool with logging executed successfully", nil
}

// TestToolWithProgress tests tool that reports progress notifications.
//
//tool:name test_tool_with_progress
func TestToolWithProgress(ctx context.Context) (string, error) {
	for _, done := range []float64{0, 50, 100} {
		runtime.Progress(ctx, done, 100, fmt.Sprintf("Completed step %.0f of 100", done))
	}
	return "Progress reported", nil
}

// TestErrorHandling tests error response handling.
//
//tool:name test_error_handling
func TestErrorHandling(ctx context.Context) (string, error) {
	return "", runtime.Permanent(errors.New("this tool intentionally returns an error for testing"))
}

// SamplingArgs are what test_sampling sends the client's model.
type SamplingArgs struct {
	// The prompt to send to the LLM.
	Prompt string `json:"prompt"`
}

// TestSampling tests server-initiated sampling (LLM completion request).
//
//tool:name test_sampling
func TestSampling(ctx context.Context, args SamplingArgs) (string, error) {
	answer, err := toolmcp.SampleText(ctx, args.Prompt, 100)
	if err != nil {
		return "", err
	}
	return "LLM response: " + answer, nil
}

// ElicitationArgs are what test_elicitation shows the user.
type ElicitationArgs struct {
	// The message to show the user.
	Message string `json:"message"`
}

// TestElicitation tests server-initiated elicitation (user input request).
//
//tool:name test_elicitation
func TestElicitation(ctx context.Context, args ElicitationArgs) (string, error) {
	return elicit(ctx, args.Message, map[string]any{
		"type":       "object",
		"properties": map[string]any{"response": map[string]any{"type": "string", "description": "User's response"}},
		"required":   []string{"response"},
	})
}

// TestElicitationSep1034Defaults tests elicitation with default values per SEP-1034.
//
//tool:name test_elicitation_sep1034_defaults
func TestElicitationSep1034Defaults(ctx context.Context) (string, error) {
	return elicit(ctx, "Please review and update the form fields with defaults", map[string]any{
		"type": "object",
		"properties": map[string]any{
			"name":     map[string]any{"type": "string", "description": "User name", "default": "John Doe"},
			"age":      map[string]any{"type": "integer", "description": "User age", "default": 30},
			"score":    map[string]any{"type": "number", "description": "User score", "default": 95.5},
			"status":   map[string]any{"type": "string", "description": "User status", "enum": []string{"active", "inactive", "pending"}, "default": "active"},
			"verified": map[string]any{"type": "boolean", "description": "Verification status", "default": true},
		},
	})
}

// TestElicitationSep1330Enums tests elicitation with enum schema improvements per SEP-1330.
//
//tool:name test_elicitation_sep1330_enums
func TestElicitationSep1330Enums(ctx context.Context) (string, error) {
	titled := []map[string]any{
		{"const": "value1", "title": "First Option"},
		{"const": "value2", "title": "Second Option"},
		{"const": "value3", "title": "Third Option"},
	}
	options := []string{"option1", "option2", "option3"}
	return elicit(ctx, "Please select options from the enum fields", map[string]any{
		"type": "object",
		"properties": map[string]any{
			"untitledSingle": map[string]any{"type": "string", "description": "Select one option", "enum": options},
			"titledSingle":   map[string]any{"type": "string", "description": "Select one option with titles", "oneOf": titled},
			"legacyEnum": map[string]any{"type": "string", "description": "Select one option (legacy)",
				"enum": []string{"opt1", "opt2", "opt3"}, "enumNames": []string{"Option One", "Option Two", "Option Three"}},
			"untitledMulti": map[string]any{"type": "array", "description": "Select multiple options", "minItems": 1, "maxItems": 3,
				"items": map[string]any{"type": "string", "enum": options}},
			"titledMulti": map[string]any{"type": "array", "description": "Select multiple options with titles", "minItems": 1, "maxItems": 3,
				"items": map[string]any{"anyOf": titled}},
		},
	})
}

func elicit(ctx context.Context, message string, schema map[string]any) (string, error) {
	action, content, err := toolmcp.Elicit(ctx, message, schema)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Elicitation completed: action=%s, content=%v", action, content), nil
}

// address is a postal address. Its type name is the $defs key the suite expects.
//
//tool:defs
type address struct {
	Street string `json:"street,omitempty"`
	City   string `json:"city,omitempty"`
}

// JSONSchemaArgs use a named type kept under $defs.
type JSONSchemaArgs struct {
	Name    string  `json:"name,omitempty"`
	Address address `json:"address,omitzero"`
}

// JSONSchema202012Tool is a tool with JSON Schema 2020-12 features for conformance testing (SEP-1613).
//
//tool:name json_schema_2020_12_tool
func JSONSchema202012Tool(ctx context.Context, args JSONSchemaArgs) (string, error) {
	return fmt.Sprintf("JSON Schema 2020-12 tool called with: name=%q, address=%+v", args.Name, args.Address), nil
}

// TestReconnection tests SSE stream disconnection and client reconnection (SEP-1699): the
// server closes the stream mid-call and sends the result after the client reconnects.
//
//tool:name test_reconnection
func TestReconnection(ctx context.Context) (string, error) {
	if req, ok := toolmcp.RequestFrom(ctx); ok && req.Extra != nil && req.Extra.CloseSSEStream != nil {
		req.Extra.CloseSSEStream(mcp.CloseSSEStreamArgs{RetryAfter: 10 * time.Millisecond})
	}
	select {
	case <-time.After(100 * time.Millisecond): // for the client to reconnect
	case <-ctx.Done():
		return "", ctx.Err()
	}
	return "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.", nil
}

// ---- Protocol 2026-07-28: input requests (SEP-2322) and stateless diagnostics (SEP-2575)

// nameSchema asks for a name.
var nameSchema = map[string]any{
	"type": "object", "properties": map[string]any{"name": map[string]any{"type": "string"}}, "required": []string{"name"},
}

// confirmSchema asks for a confirmation.
var confirmSchema = map[string]any{
	"type": "object", "properties": map[string]any{"ok": map[string]any{"type": "boolean"}}, "required": []string{"ok"},
}

// TestInputRequiredResultElicitation asks for the caller's name in an input request named user_name (SEP-2322).
//
//tool:name test_input_required_result_elicitation
func TestInputRequiredResultElicitation(ctx context.Context) (string, error) {
	action, content, err := toolmcp.ElicitNamed(ctx, "user_name", "What is your name?", nameSchema)
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Hello, %v! (%s)", content["name"], action), nil
}

// TestInputRequiredResultSampling asks the client's model a question in an input request named capital_question (SEP-2322).
//
//tool:name test_input_required_result_sampling
func TestInputRequiredResultSampling(ctx context.Context) (string, error) {
	answers, err := toolmcp.Ask(ctx, toolmcp.SampleInput("capital_question", userMessage("What is the capital of France?", 100)))
	if err != nil {
		return "", err
	}
	return "Sampling response: " + sampledText(answers["capital_question"]), nil
}

// TestInputRequiredResultListRoots asks for the client's roots in an input request named client_roots (SEP-2322).
//
//tool:name test_input_required_result_list_roots
func TestInputRequiredResultListRoots(ctx context.Context) (string, error) {
	answers, err := toolmcp.Ask(ctx, toolmcp.RootsInput("client_roots"))
	if err != nil {
		return "", err
	}
	return "Client exposed roots: " + rootURIs(answers["client_roots"]), nil
}

// TestInputRequiredResultRequestState asks for a confirmation; the answer comes back with the sealed requestState (SEP-2322).
//
//tool:name test_input_required_result_request_state
func TestInputRequiredResultRequestState(ctx context.Context) (string, error) {
	action, _, err := toolmcp.ElicitNamed(ctx, "confirm", "Please confirm", confirmSchema)
	if err != nil {
		return "", err
	}
	return "state-ok: requestState received and confirmation " + action + "ed", nil
}

// TestInputRequiredResultMultipleInputs asks for elicitation, sampling and roots in one round (SEP-2322).
//
//tool:name test_input_required_result_multiple_inputs
func TestInputRequiredResultMultipleInputs(ctx context.Context) (string, error) {
	answers, err := toolmcp.Ask(ctx,
		toolmcp.ElicitInput("user_name", "What is your name?", nameSchema),
		toolmcp.SampleInput("greeting", userMessage("Generate a greeting", 50)),
		toolmcp.RootsInput("client_roots"))
	if err != nil {
		return "", err
	}
	name := answers["user_name"].(*mcp.ElicitResult).Content["name"]
	return fmt.Sprintf("%s %v — roots: %s", sampledText(answers["greeting"]), name, rootURIs(answers["client_roots"])), nil
}

// TestInputRequiredResultMultiRound asks two questions, one round each (SEP-2322).
//
//tool:name test_input_required_result_multi_round
func TestInputRequiredResultMultiRound(ctx context.Context) (string, error) {
	_, first, err := toolmcp.ElicitNamed(ctx, "step1", "Step 1: What is your name?", nameSchema)
	if err != nil {
		return "", err
	}
	_, second, err := toolmcp.ElicitNamed(ctx, "step2", "Step 2: What is your favorite color?", map[string]any{
		"type": "object", "properties": map[string]any{"color": map[string]any{"type": "string"}}, "required": []string{"color"},
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Multi-round complete: %v likes %v", first["name"], second["color"]), nil
}

// TestInputRequiredResultTamperedState asks for a confirmation; a requestState changed by the client is refused (-32602) by runtime/mcp (SEP-2322).
//
//tool:name test_input_required_result_tampered_state
func TestInputRequiredResultTamperedState(ctx context.Context) (string, error) {
	action, _, err := toolmcp.ElicitNamed(ctx, "confirm", "Please confirm", confirmSchema)
	if err != nil {
		return "", err
	}
	return "state-ok: confirmation " + action + "ed", nil
}

// TestInputRequiredResultCapabilities asks only for the inputs the client declared it can give (SEP-2322).
//
//tool:name test_input_required_result_capabilities
func TestInputRequiredResultCapabilities(ctx context.Context) (string, error) {
	var inputs []toolmcp.Input
	if req, ok := toolmcp.RequestFrom(ctx); ok {
		if caps := req.ClientCapabilities(); caps != nil {
			if caps.Elicitation != nil {
				inputs = append(inputs, toolmcp.ElicitInput("user_name", "What is your name?", nameSchema))
			}
			if caps.Sampling != nil {
				inputs = append(inputs, toolmcp.SampleInput("greeting", userMessage("Generate a short greeting", 50)))
			}
		}
	}
	if len(inputs) == 0 {
		return "No declared client capability supports an input request", nil
	}
	if _, err := toolmcp.Ask(ctx, inputs...); err != nil {
		return "", err
	}
	return "Capability-aware input requests fulfilled", nil
}

// TestMissingCapability needs sampling: a client that did not declare it gets MissingRequiredClientCapability (-32021) on 2026-07-28 (SEP-2575).
//
//tool:name test_missing_capability
func TestMissingCapability(ctx context.Context) (string, error) {
	answer, err := toolmcp.SampleText(ctx, "Say hello", 10)
	if err != nil {
		return "", err // ErrNoSampling, as it is: runtime/mcp answers -32021
	}
	return "Client declared the sampling capability: " + answer, nil
}

// TestStreamingElicitation answers with a plain result: its stream carries no request of the server's (SEP-2575).
//
//tool:name test_streaming_elicitation
func TestStreamingElicitation(ctx context.Context) (string, error) {
	return "stream observed: result frames only, no top-level requests", nil
}

// TestLoggingTool logs a message, which reaches a 2026-07-28 client only when its request asked for logs (SEP-2575).
//
//tool:name test_logging_tool
func TestLoggingTool(ctx context.Context) (string, error) {
	if err := toolmcp.Log(ctx, "info", "test_logging_tool executed"); err != nil {
		return "", err
	}
	return "Log attempted", nil
}

func userMessage(text string, maxTokens int64) *mcp.CreateMessageParams {
	return &mcp.CreateMessageParams{Messages: []*mcp.SamplingMessage{{Role: "user", Content: &mcp.TextContent{Text: text}}}, MaxTokens: maxTokens}
}

func sampledText(res mcp.InputResponse) string {
	if r, ok := res.(*mcp.CreateMessageResult); ok {
		if text, ok := r.Content.(*mcp.TextContent); ok {
			return text.Text
		}
	}
	return "(not text)"
}

func rootURIs(res mcp.InputResponse) string {
	var uris []string
	for _, root := range res.(*mcp.ListRootsResult).Roots {
		uris = append(uris, root.URI)
	}
	return strings.Join(uris, ", ")
}

// ---- Prompts

// TestSimplePrompt is a simple prompt without arguments.
//
//tool:prompt
//tool:title Simple Test Prompt
func TestSimplePrompt(ctx context.Context) (string, error) {
	return "This is a simple prompt for testing.", nil
}

// PromptArgs are two test arguments.
type PromptArgs struct {
	// First test argument.
	Arg1 string `json:"arg1"`
	// Second test argument.
	Arg2 string `json:"arg2"`
}

// TestPromptWithArguments is a prompt with required arguments.
//
//tool:prompt
//tool:title Prompt With Arguments
func TestPromptWithArguments(ctx context.Context, args PromptArgs) (string, error) {
	return fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", args.Arg1, args.Arg2), nil
}

// EmbedArgs name the resource to embed.
type EmbedArgs struct {
	// URI of the resource to embed.
	ResourceURI string `json:"resourceUri"`
}

// TestPromptWithEmbeddedResource is a prompt that includes an embedded resource.
//
//tool:prompt
//tool:title Prompt With Embedded Resource
func TestPromptWithEmbeddedResource(ctx context.Context, args EmbedArgs) (runtime.Result, error) {
	return runtime.Result{Text: "Please process the embedded resource above.",
		Parts: []runtime.Part{runtime.TextResourcePart(args.ResourceURI, "text/plain", "Embedded resource content for testing.")}}, nil
}

// TestPromptWithImage is a prompt that includes image content.
//
//tool:prompt
//tool:title Prompt With Image
func TestPromptWithImage(ctx context.Context) (runtime.Result, error) {
	return runtime.Result{Text: "Please analyze the image above.", Parts: []runtime.Part{runtime.ImagePart("image/png", pngPixel)}}, nil
}

// TestInputRequiredResultPrompt is a prompt that asks the user for its context first (SEP-2322).
//
//tool:prompt
//tool:name test_input_required_result_prompt
func TestInputRequiredResultPrompt(ctx context.Context) (string, error) {
	_, content, err := toolmcp.ElicitNamed(ctx, "user_context", "Please provide context for the prompt", map[string]any{
		"type": "object", "properties": map[string]any{"context": map[string]any{"type": "string"}}, "required": []string{"context"},
	})
	if err != nil {
		return "", err
	}
	return fmt.Sprintf("Context: %v", content["context"]), nil
}

// ---- Resources

// StaticText is a static text resource for testing.
//
//tool:resource test://static-text mime=text/plain
//tool:name static-text
//tool:title Static Text Resource
func StaticText(ctx context.Context) (string, error) {
	return "This is the content of the static text resource.", nil
}

// StaticBinary is a static binary resource (image) for testing.
//
//tool:resource test://static-binary mime=image/png
//tool:name static-binary
//tool:title Static Binary Resource
func StaticBinary(ctx context.Context) (runtime.Result, error) {
	return runtime.Result{Parts: []runtime.Part{runtime.ImagePart("image/png", pngPixel)}}, nil
}

// TemplateArgs are the variables of the template's URI.
type TemplateArgs struct {
	// The ID the data is for.
	ID string `json:"id"`
}

// TemplateData is what a template resource holds.
type TemplateData struct {
	ID           string `json:"id"`
	TemplateTest bool   `json:"templateTest"`
	Data         string `json:"data"`
}

// Template is a resource template with parameter substitution.
//
//tool:resource test://template/{id}/data mime=application/json
//tool:title Resource Template
func Template(ctx context.Context, args TemplateArgs) (TemplateData, error) {
	return TemplateData{ID: args.ID, TemplateTest: true, Data: "Data for ID: " + args.ID}, nil
}

// WatchedResourceURI is the resource whose updates subscribers are told of.
const WatchedResourceURI = "test://watched-resource"

// WatchedResource is a resource that auto-updates every 3 seconds.
//
//tool:resource test://watched-resource mime=text/plain
//tool:name watched-resource
//tool:title Watched Resource
func WatchedResource(ctx context.Context) (string, error) {
	return "Watched resource content", nil
}
