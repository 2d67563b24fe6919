//go:build go1.27 && goexperiment.jsonv2

// encoding/json/v2 is in Go 1.27 with the jsonv2 experiment, its default (encoding/json runs
// on it too); GOEXPERIMENT=nojsonv2 leaves it out. go1.27 also makes this file's language
// version 1.27 (the module's is 1.26), which vet's stdversion check requires of a file that
// calls a function added in 1.27. Earlier Go, even with GOEXPERIMENT=jsonv2, uses nojsonv2_test.go.

package benchmarks

import (
	"encoding/json"
	jsonv2 "encoding/json/v2"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
)

const haveJSONv2 = true

// unmarshalV2 is encoding/json/v2.Unmarshal with its default options.
func unmarshalV2(data []byte, v any) error { return jsonv2.Unmarshal(data, v) }

// The encoding/json/v2 rows measure the same work as encoding/json's: on every valid
// benchmark document, v2 with its defaults (case-sensitive names, duplicate names refused)
// decodes the same value.
func TestJSONv2DecodesAsJSON(t *testing.T) {
	check := func(name string, v1, v2 any) {
		data := readDoc(t, name)
		require.NoError(t, json.Unmarshal(data, v1), name)
		require.NoError(t, jsonv2.Unmarshal(data, v2), name)
		assert.Equal(t, v1, v2, name)
	}
	check("small.json", new(weather.WeatherArgs), new(weather.WeatherArgs))
	check("medium.json", new(email.SendEmailArgs), new(email.SendEmailArgs))
	check("large.json", new(orders.CreateOrderArgs), new(orders.CreateOrderArgs))
}
