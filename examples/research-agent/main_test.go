package main

import (
	"bytes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestResearchAgent(t *testing.T) {
	var out bytes.Buffer
	store, err := run(t.Context(), &out)
	require.NoError(t, err, out.String())

	log := out.String()
	for _, want := range []string{
		"[lead] write_todos",
		"(host: plan updated, 0 of 4 done)",
		"The user chose: Go 1.26\n  They added: keep it short",
		"-- sub-agent researcher starts (depth 1, 2 tools): Find the URL of the official release notes of Go 1.26",
		"[researcher] web_search",
		"[researcher] web_fetch",
		"(host: researcher answered at depth 1)",
		"[lead] create_artifact",
		"(host: plan updated, 4 of 4 done)",
		"The report on Go 1.26 is in the artifact report.md.",
	} {
		assert.Contains(t, log, want)
	}

	report, err := store.Load(t.Context(), "session-1", "report.md", 0)
	require.NoError(t, err)
	assert.Contains(t, report.Content, "# Go 1.26 in brief")
	assert.Contains(t, report.Content, "- Go 1.26 ships the **green tea** garbage collector by default.")
	assert.Contains(t, report.Content, "- new(expr) takes an expression")
}
