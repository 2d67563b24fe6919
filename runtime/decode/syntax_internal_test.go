package decode

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"testing"
)

// locateSyntaxError agrees with encoding/json on which texts start with a JSON value, over
// many small edits of documents that are: its place and words are only as good as that.
func TestLocateSyntaxErrorAgreesWithEncodingJSON(t *testing.T) {
	seeds := []string{
		`{"name":"a","kids":[{"name":"b","tags":{"x":{"name":"y"}}}],"n":-1.5e+3,"ok":true,"no":false,"z":null}`,
		`{"s":"esc \" \\ \/ \b \f \n \r \t \u00e9 é","a":[[],{},[1,2],0,0.5,1E2]}`,
	}
	alphabet := []byte(`{}[]:,"\ 0123456789.eE+-tfnaulrsxq` + "\t\n\x01\xff")
	rng := rand.New(rand.NewPCG(1, 2))
	for n := 0; n < 20000; n++ {
		doc := []byte(seeds[n%len(seeds)])
		for k := rng.IntN(3) + 1; k > 0; k-- {
			i := rng.IntN(len(doc) + 1)
			switch rng.IntN(3) {
			case 0: // insert
				doc = append(doc[:i], append([]byte{alphabet[rng.IntN(len(alphabet))]}, doc[i:]...)...)
			case 1: // delete
				if i < len(doc) {
					doc = append(doc[:i], doc[i+1:]...)
				}
			default: // cut
				doc = doc[:i]
			}
		}
		var v json.RawMessage
		wantInvalid := json.NewDecoder(bytes.NewReader(doc)).Decode(&v) != nil
		at, _, found := locateSyntaxError(doc)
		if found != wantInvalid {
			t.Fatalf("%q: found an error %v (at %d), encoding/json says invalid %v", doc, found, at, wantInvalid)
		}
		if found {
			_ = describeSyntaxError(doc, at, expectValue) // never panics, wherever at is
		}
	}
}
