package mount

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDropNullOptionals(t *testing.T) {
	schema := json.RawMessage(`{"type":"object","required":["region","must"],"properties":{
		"region":{"type":"string"},"verbose":{"type":"boolean"},"must":{"type":"boolean"},
		"maybe":{"type":["boolean","null"]},"anything":{}}}`)
	for args, want := range map[string]string{
		`{"region":"us","verbose":null}`:                `{"region":"us"}`,
		`{"region":"us","verbose":false}`:               `{"region":"us","verbose":false}`,
		`{"region":"us","must":null}`:                   `{"region":"us","must":null}`,
		`{"region":"us","maybe":null,"anything":null}`:  `{"region":"us","maybe":null,"anything":null}`,
		`{"region":"us","unknown":null,"verbose":null}`: `{"region":"us","unknown":null}`,
		`[null]`: `[null]`,
		`null`:   `null`,
	} {
		assert.JSONEq(t, want, string(dropNullOptionals([]byte(args), schema)), args)
	}
}
