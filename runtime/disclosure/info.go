package disclosure

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/runtime"
)

// Info is level 2 of a tool: everything a model needs to call it well, which the catalog
// leaves out.
type Info struct {
	Name        string      `json:"name"`
	Title       string      `json:"title,omitempty"`
	Description string      `json:"description,omitempty"`
	Detail      string      `json:"detail,omitempty"`
	Parameters  []Parameter `json:"parameters"`
	// InputSchema is the tool's full input schema, for parameters whose structure the
	// parameter list cannot show.
	InputSchema   json.RawMessage        `json:"input_schema,omitempty"`
	Examples      []runtime.Example      `json:"examples,omitempty"`
	Triggers      []string               `json:"triggers,omitempty"`
	Prerequisites []runtime.Prerequisite `json:"prerequisites,omitempty"`
	Workflow      []runtime.WorkflowStep `json:"workflow,omitempty"`
	Warnings      []string               `json:"warnings,omitempty"`
	Related       []runtime.Related      `json:"related,omitempty"`
	// Confirm is set when a call waits for approval; ConfirmReason says why, Risk how much is
	// at stake.
	Confirm       bool         `json:"confirm,omitempty"`
	ConfirmReason string       `json:"confirm_reason,omitempty"`
	Risk          runtime.Risk `json:"risk,omitempty"`
}

// Describe gathers the level-2 information of t. It fails only when t's input schema cannot
// be read (see Parameters).
func Describe(t runtime.Tool) (Info, error) {
	params, err := Parameters(t.InputSchema)
	if err != nil {
		return Info{}, fmt.Errorf("tool %q: %w", t.Name, err)
	}
	info := Info{
		Name:          t.Name,
		Title:         t.Title,
		Description:   t.Description,
		Detail:        t.Detail,
		Parameters:    params,
		Examples:      t.Examples,
		Triggers:      t.Triggers,
		Prerequisites: t.Prerequisites,
		Workflow:      t.Workflow,
		Warnings:      t.Warnings,
		Related:       t.Related,
		Confirm:       t.Permission == runtime.PermissionConfirm,
		ConfirmReason: t.ConfirmReason,
		Risk:          t.Risk,
	}
	for _, p := range params {
		if p.Structured {
			info.InputSchema = compact(t.InputSchema)
			break
		}
	}
	return info, nil
}

// Text renders the information as plain text for a model, in sections that appear only when
// they have something to say:
//
//	Tool: get_weather
//	Gets the current weather for a city. Returns temperature and conditions.
//
//	Use it when the user asks about the weather, temperature or forecast of a named city.
//
//	Parameters:
//	- city (string, required): City name, e.g. Beijing, Tokyo.
//	- unit (string, optional, default "celsius"): Temperature unit. …
//
//	Examples:
//	- Weather in Tokyo: {"city":"Tokyo"} => Current weather for Tokyo in celsius
func (i Info) Text() string {
	var b strings.Builder
	b.WriteString("Tool: ")
	b.WriteString(i.Name)
	if i.Title != "" {
		fmt.Fprintf(&b, " (%s)", i.Title)
	}
	b.WriteByte('\n')
	if i.Description != "" {
		b.WriteString(i.Description)
		b.WriteByte('\n')
	}
	if i.Detail != "" {
		b.WriteString("\n")
		b.WriteString(i.Detail)
		b.WriteByte('\n')
	}

	b.WriteString("\nParameters:")
	if len(i.Parameters) == 0 {
		b.WriteString(" none; call it with no arguments.")
	}
	b.WriteByte('\n')
	for _, p := range i.Parameters {
		fmt.Fprintf(&b, "- %s (%s", p.Name, p.Type)
		if p.Required {
			b.WriteString(", required")
		} else {
			b.WriteString(", optional")
		}
		if p.Default != nil {
			fmt.Fprintf(&b, ", default %s", p.Default)
		}
		b.WriteString(")")
		if p.Description != "" {
			b.WriteString(": ")
			b.WriteString(oneLine(p.Description))
		}
		b.WriteByte('\n')
	}
	if i.InputSchema != nil {
		fmt.Fprintf(&b, "Input schema (JSON Schema): %s\n", i.InputSchema)
	}

	if len(i.Examples) > 0 {
		b.WriteString("\nExamples:\n")
		for _, e := range i.Examples {
			b.WriteString("- ")
			if e.Scenario != "" {
				b.WriteString(e.Scenario)
				b.WriteString(": ")
			}
			b.Write(compact(e.Args))
			if e.Expected != "" {
				b.WriteString(" => ")
				b.WriteString(e.Expected)
			}
			b.WriteByte('\n')
		}
	}
	list(&b, "Use it when:", i.Triggers)
	if len(i.Workflow) > 0 {
		b.WriteString("\nWorkflow:\n")
		for n, step := range i.Workflow {
			fmt.Fprintf(&b, "%d. %s\n", n+1, oneLine(step.String()))
		}
	}
	prereqs := make([]string, len(i.Prerequisites))
	for n, p := range i.Prerequisites {
		prereqs[n] = p.String()
	}
	list(&b, "Before calling it:", prereqs)
	list(&b, "Warnings:", i.Warnings)
	if len(i.Related) > 0 {
		b.WriteString("\nRelated tools:\n")
		for _, r := range i.Related {
			b.WriteString("- ")
			b.WriteString(r.Name)
			if r.Relation != "" {
				fmt.Fprintf(&b, " (%s)", r.Relation)
			}
			b.WriteByte('\n')
		}
	}
	if i.Confirm {
		b.WriteString("\nA call waits for the user's approval")
		if i.ConfirmReason != "" {
			b.WriteString(": ")
			b.WriteString(i.ConfirmReason)
		}
		b.WriteString(".")
		if i.Risk != "" {
			fmt.Fprintf(&b, " Risk: %s.", i.Risk)
		}
		b.WriteByte('\n')
	} else if i.Risk != "" {
		fmt.Fprintf(&b, "\nRisk: %s.\n", i.Risk)
	}
	return strings.TrimRight(b.String(), "\n")
}

// list writes a titled bullet list, or nothing when items is empty.
func list(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	b.WriteString("\n")
	b.WriteString(title)
	b.WriteByte('\n')
	for _, it := range items {
		b.WriteString("- ")
		b.WriteString(oneLine(it))
		b.WriteByte('\n')
	}
}

// oneLine folds runs of white space, newlines included, into single spaces, so that a
// multi-line doc comment keeps a list item on one line.
func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
