package encode

import (
	"errors"
	"math"
	"net/netip"
	"strings"
	"testing"
	"time"
)

func TestWriterConventions(t *testing.T) {
	w := &Writer{}
	w.ObjStart()
	w.Field("eta")
	w.Duration(90 * time.Minute)
	w.Field("at")
	w.Time(time.Date(2026, 1, 2, 3, 4, 5, 6, time.UTC))
	w.Field("bytes")
	w.Bytes64([]byte("hi"))
	w.Field("raw")
	w.Raw(nil)
	w.Field("ip")
	w.Text(netip.MustParseAddr("10.0.0.1"))
	w.Field("f32")
	w.Float(0.1, 32)
	w.Field("any")
	w.Any(map[string]int{"b": 2, "a": 1})
	w.ObjEnd()
	got, err := w.Bytes()
	if err != nil {
		t.Fatal(err)
	}
	want := `{"eta":"1h30m0s","at":"2026-01-02T03:04:05.000000006Z","bytes":"aGk=","raw":null,"ip":"10.0.0.1","f32":0.1,"any":{"a":1,"b":2}}`
	if string(got) != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

func TestWriterFailsOnValuesJSONCannotHold(t *testing.T) {
	for name, write := range map[string]func(w *Writer){
		"NaN":     func(w *Writer) { w.Float(math.NaN(), 64) },
		"Inf":     func(w *Writer) { w.Float(math.Inf(1), 64) },
		"raw":     func(w *Writer) { w.Raw([]byte("{oops")) },
		"text":    func(w *Writer) { w.Text(failingText{}) },
		"channel": func(w *Writer) { w.Any(make(chan int)) },
	} {
		w := &Writer{}
		write(w)
		if _, err := w.Bytes(); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

type failingText struct{}

func (failingText) MarshalText() ([]byte, error) { return nil, errors.New("no text") }

func TestSortedKeys(t *testing.T) {
	type label string
	if got := SortedStringKeys(map[label]int{"b": 1, "a": 2, "c": 3}); len(got) != 3 || got[0] != "a" || got[2] != "c" {
		t.Errorf("string keys %v", got)
	}
	// encoding/json sorts integer keys by their decimal text: "10" before "9".
	ints := SortedIntKeys(map[int]bool{9: true, 10: true, -1: true})
	if ints[0].Name != "-1" || ints[1].Name != "10" || ints[2].Name != "9" {
		t.Errorf("int keys %v", ints)
	}
	addrs := SortedTextKeys(&Writer{}, map[netip.Addr]int{netip.MustParseAddr("10.0.0.2"): 1, netip.MustParseAddr("10.0.0.10"): 2})
	if addrs[0].Name != "10.0.0.10" || addrs[1].Name != "10.0.0.2" {
		t.Errorf("text keys %v", addrs)
	}
}

func TestIsZero(t *testing.T) {
	type pair struct{ A, B int }
	if !IsZero(pair{}) || IsZero(pair{A: 1}) || !IsZero(time.Time{}) || IsZero(time.Now()) {
		t.Error("IsZero disagrees with the zero value or the IsZero method")
	}
}

func TestFinishCopiesAndReportsFailures(t *testing.T) {
	w := Acquire()
	w.ObjStart()
	w.Field("a")
	w.Int(1)
	w.ObjEnd()
	res := Finish(w, "t")
	if res.IsError || res.Text != `{"a":1}` || string(res.Structured) != `{"a":1}` {
		t.Fatalf("result %+v", res)
	}
	// The writer went back to the pool: what the next call writes must not show through.
	w2 := Acquire()
	w2.String("overwritten")
	Finish(w2, "t")
	if string(res.Structured) != `{"a":1}` {
		t.Errorf("a result shares its bytes with a pooled writer: %s", res.Structured)
	}

	w3 := Acquire()
	w3.Float(math.NaN(), 64)
	if res := Finish(w3, "get_x"); !res.IsError || !strings.Contains(res.Err.Error(), "get_x: encoding the result") {
		t.Errorf("failed encoding: %+v", res)
	}
	if w4 := Acquire(); w4.err != nil {
		t.Error("a pooled writer kept the error of its last use")
	}
}
