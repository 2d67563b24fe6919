package schemaformat

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func compile(t *testing.T, format string, register bool) *jsonschema.Schema {
	t.Helper()
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if register {
		Register(c)
	}
	require.NoError(t, c.AddResource("mem://s.json", map[string]any{"type": "string", "format": format}))
	s, err := c.Compile("mem://s.json")
	require.NoError(t, err)
	return s
}

// TestRegisterReplacesTheValidatorsRules: values the validator's own checkers accept and the
// RFCs refuse are refused once toolgen's rules are registered, and values both accept pass.
func TestRegisterReplacesTheValidatorsRules(t *testing.T) {
	for _, c := range []struct{ format, value string }{
		{"uri", "https://example.org/foo bar.txt"},
		{"duration", "P1Y2D"},
		{"email", "@example.com"},
		{"ipv4", "+1.2.3.4"},
		{"hostname", "xn--X"},
	} {
		assert.NoError(t, compile(t, c.format, false).Validate(c.value), "the validator's own rule accepts %q", c.value)
		err := compile(t, c.format, true).Validate(c.value)
		if assert.Error(t, err, "toolgen's rule refuses %q", c.value) {
			assert.Contains(t, err.Error(), "must be ")
		}
	}
	assert.NoError(t, compile(t, "uri", true).Validate("https://example.org/foo%20bar.txt"))
	// A format only toolgen knows is asserted too.
	assert.Error(t, compile(t, "idn-hostname", true).Validate("a·l"))
}
