package agreement_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/gen/agreement"
	"github.com/toolgen-go/toolgen/runtime"
)

// FuzzAgreement feeds raw documents to the decoder of every example tool and to the validator
// on its schema; they must agree on each document outside the documented exception classes,
// and the decoder must never panic, even on those. The seed corpus is the generated corpus of
// every example tool, which the fuzzer mutates. CI runs it briefly:
//
//	go test -run '^$' -fuzz FuzzAgreement -fuzztime 30s ./gen/agreement
func FuzzAgreement(f *testing.F) {
	var tools []runtime.Tool
	for _, group := range exampleTools() {
		for _, tool := range group {
			tools = append(tools, tool)
			for _, doc := range agreement.Corpus(tool.InputSchema, agreement.CheckSeed) {
				f.Add(doc)
			}
		}
	}
	f.Add([]byte(`{"city":"Tokyo","city":"Paris"}`))
	f.Add([]byte(`{"id":"ord-1"} x`))
	f.Fuzz(func(t *testing.T, doc []byte) {
		for _, tool := range tools {
			// Compare checks only that the decoder behaves on exception documents.
			if msg := agreement.Compare(tool, doc); msg != "" {
				t.Errorf("tool %s: %s", tool.Name, msg)
			}
		}
	})
}
