//go:build goexperiment.jsonv2

package parse_test

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen/model"
)

// With encoding/json on the json/v2 engine (Go 1.27's default), json.RawMessage is an alias of
// jsontext.Value: a field declared either way is raw JSON, written json.RawMessage in generated
// code, the stale-type guard's spelling of the struct included (so that generated files are the
// same whichever Go generates them).
func TestJSONTextValueIsRawJSON(t *testing.T) {
	r := parseFiles(t, map[string]string{"m.go": `package m

import (
	"context"
	"encoding/json"
	"encoding/json/jsontext"
)

type Args struct {
	Raw  json.RawMessage
	Text jsontext.Value
}

//tool:name raw
func Raw(ctx context.Context, a Args) (string, error) { return "", nil }
`})
	r.requireNoErrors(t)
	args := r.tool(t, "raw").Args
	for _, name := range []string{"Raw", "Text"} {
		typ := field(t, args, name).Type
		require.NotNil(t, typ, name)
		assert.Equal(t, model.KindRawJSON, typ.Kind, name)
		require.NotNil(t, typ.Named, name)
		assert.Equal(t, model.GoName{Path: "encoding/json", Name: "RawMessage"}, *typ.Named, name)
	}
	require.NotNil(t, args.Shape)
	require.Len(t, args.Shape.Fields, 2)
	for _, f := range args.Shape.Fields {
		assert.Equal(t, model.GoType{Kind: model.GoNamed, Path: "encoding/json", Name: "RawMessage"}, *f.Type, f.Name)
	}
}
