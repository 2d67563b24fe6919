// Package askmcp answers ask_user (toolkit/ask) through MCP elicitation: when the tool runs in
// a tools/call served by runtime/mcp and the client declared the elicitation capability, the
// question goes to the client's user as a form, and their reply is the answer.
//
// The form: a free-form question asks for one text field ("answer"); a single choice is a
// string field whose enum is the options ("choice"); a multiple choice is one checkbox per
// option (a boolean field each, titled with the option, which every protocol version can
// show), and both have an optional "comment". Declining or dismissing the form is a declined
// answer.
//
// Where elicitation is not possible (a client without the capability, a stateless HTTP
// request on an older protocol, a call that did not come over MCP), Answer returns an error
// wrapping ask.ErrNoUser, so the toolkit's Queue, if it has one, takes the question:
//
//	tools := (&ask.Toolkit{Answerer: askmcp.Answerer{}, Queue: queue}).Tools()
//
// On protocol 2026-07-28 the call is answered in several rounds (runtime/mcp runs the handler
// again with the client's answer); ask_user does nothing before it asks, so that is safe.
package askmcp

import (
	"context"
	"errors"
	"fmt"

	toolmcp "github.com/toolgen-go/toolgen/runtime/mcp"
	"github.com/toolgen-go/toolgen/toolkit/ask"
)

// Answerer asks through MCP elicitation. Its zero value is ready to use.
type Answerer struct{}

// Answer puts q to the MCP client's user.
func (Answerer) Answer(ctx context.Context, q ask.Question) (ask.Answer, error) {
	schema, read := form(q)
	action, content, err := toolmcp.Elicit(ctx, q.Question, schema)
	if errors.Is(err, toolmcp.ErrNoElicitation) || errors.Is(err, toolmcp.ErrNotMCPCall) {
		return ask.Answer{}, fmt.Errorf("%w: %w", ask.ErrNoUser, err)
	}
	if err != nil {
		return ask.Answer{}, err
	}
	a := read(content)
	if action != "accept" || (len(a.Choices) == 0 && a.Text == "") {
		return ask.Answer{Declined: true}, nil // dismissed, or sent back empty
	}
	return a, nil
}

// form returns the elicitation schema of q and how to read the user's content.
func form(q ask.Question) (map[string]any, func(map[string]any) ask.Answer) {
	comment := map[string]any{"type": "string", "title": "Comment", "description": "Anything to add (optional)"}
	switch {
	case len(q.Options) == 0:
		return object(map[string]any{"answer": map[string]any{"type": "string", "title": "Answer"}}, "answer"),
			func(c map[string]any) ask.Answer { return ask.Answer{Text: text(c, "answer")} }
	case !q.MultiSelect:
		return object(map[string]any{"choice": map[string]any{"type": "string", "title": "Choice", "enum": q.Options}, "comment": comment}, "choice"),
			func(c map[string]any) ask.Answer {
				a := ask.Answer{Text: text(c, "comment")}
				if choice := text(c, "choice"); choice != "" {
					a.Choices = []string{choice}
				}
				return a
			}
	}
	props := map[string]any{"comment": comment}
	for i, o := range q.Options {
		props[optionKey(i)] = map[string]any{"type": "boolean", "title": o, "default": false}
	}
	return object(props), func(c map[string]any) ask.Answer {
		a := ask.Answer{Text: text(c, "comment")}
		for i, o := range q.Options {
			if on, _ := c[optionKey(i)].(bool); on {
				a.Choices = append(a.Choices, o)
			}
		}
		return a
	}
}

func optionKey(i int) string { return fmt.Sprintf("option_%d", i+1) }

func object(props map[string]any, required ...string) map[string]any {
	s := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		s["required"] = required
	}
	return s
}

func text(c map[string]any, key string) string {
	s, _ := c[key].(string)
	return s
}
