// Package schemaformat gives a JSON Schema validator toolgen's format rules. The generator
// checks examples and defaults with github.com/santhosh-tekuri/jsonschema/v6, whose own
// format checkers are laxer than the RFCs in places (a space in a uri, "P1Y2D" as a duration);
// a value generation accepts must be one the generated decoder accepts, so the validator
// checks each format with the decoder's checker (runtime/decode) instead.
package schemaformat

import (
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolgen-go/toolgen/runtime/decode"
)

// Register makes c check every format toolgen supports as the generated decoder does. Formats
// are asserted only when c.AssertFormat has been called.
func Register(c *jsonschema.Compiler) {
	for _, name := range decode.FormatNames() {
		check, describe, _ := decode.FormatFunc(name)
		c.RegisterFormat(&jsonschema.Format{Name: name, Validate: func(v any) error {
			if s, ok := v.(string); ok && !check(s) {
				return fmt.Errorf("must be %s", describe)
			}
			return nil
		}})
	}
}
