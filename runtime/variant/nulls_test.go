package variant

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
)

var fastAbsent = []string{"/a", "/b/c", "/l/*", "/l/*/x"}

var restoreSeeds = []string{
	`{"a":null,"b":{"c":null,"d":null},"l":[null,{"x":null,"y":null},1]}`,
	`{"a":1,"b":{"c":"null"},"l":[]}`,
	` { "a" : null , "z" : [ null ] } `,
	`{"z":1,"a":null}`,
	`{"a":null}`,
	`{"\u0061":null}`,
	`{"a":nullx}`,
	`{"l":[{"x":null},{"x":2}]}`,
	`[null]`,
	`{"a":null,}`,
	`{"a":null,"a":1}`,
	`{"a":1,"b":{"c":2,"c":null}}`,
	`{"l":[{"x":null,"y":1,"x":null}]}`,
	strings.Repeat(`{"b":`, 70) + `null` + strings.Repeat(`}`, 70),
}

// The fast path must give what the general restorer gives, on every document both accept.
func TestRestoreFastPathMatchesGeneral(t *testing.T) {
	for _, doc := range restoreSeeds {
		checkRestorePaths(t, []byte(doc))
	}
}

func FuzzRestoreFastPath(f *testing.F) {
	for _, doc := range restoreSeeds {
		f.Add([]byte(doc))
	}
	f.Fuzz(func(t *testing.T, doc []byte) { checkRestorePaths(t, doc) })
}

func checkRestorePaths(t *testing.T, doc []byte) {
	t.Helper()
	v := Variant{NullMeansAbsent: fastAbsent}
	got, err := v.Restore(doc)
	want, wantErr := v.restoreGeneral(doc)
	if !json.Valid(doc) {
		if err == nil && wantErr == nil && !jsonEqual(got, want) {
			t.Errorf("%s: fast %s, general %s", doc, got, want)
		}
		return
	}
	if (err != nil) != (wantErr != nil) || !jsonEqual(got, want) {
		t.Errorf("%s:\nfast    %s %v\ngeneral %s %v", doc, got, err, want, wantErr)
	}
}

func jsonEqual(a, b []byte) bool {
	var x, y any
	if json.Unmarshal(a, &x) != nil || json.Unmarshal(b, &y) != nil {
		return string(a) == string(b)
	}
	return reflect.DeepEqual(x, y)
}

func TestRestoreCopiesNothingWithoutNulls(t *testing.T) {
	v := Variant{NullMeansAbsent: []string{"/unit", "/days"}}
	args := []byte(`{"city":"Tokyo","unit":"celsius"}`)
	got, err := v.Restore(args)
	if err != nil || &got[0] != &args[0] {
		t.Errorf("arguments without nulls to remove were copied (%v)", err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = v.Restore(args) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
	withNulls := []byte(`{"city":"Tokyo","unit":null,"days":null}`)
	if n := testing.AllocsPerRun(100, func() { _, _ = v.Restore(withNulls) }); n > 1 {
		t.Errorf("%v allocations removing nulls, want the output only", n)
	}
}
