package agreement

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"math/big"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolgen-go/toolgen/gen/schema"
	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/internal/schemaformat"
	"github.com/toolgen-go/toolgen/runtime"
)

// CheckSeed is the seed Check passes to Corpus, so that a failure reproduces.
const CheckSeed = 1

// maxReports bounds the disagreements Check reports per tool: past a few, the rest are
// usually the same bug again.
const maxReports = 20

// Check runs a corpus of valid and invalid argument documents for every tool through both the
// tool's generated decoder (Bind) and an independent JSON Schema 2020-12 validator
// (santhosh-tekuri/jsonschema/v6 with format assertion) on its InputSchema, and reports every
// disagreement with t.Errorf (document, what each side said).
//
// The corpus is Corpus(tool.InputSchema, CheckSeed) plus the tool's example calls. At most 20
// disagreements are printed per tool, followed by their count.
func Check(t testing.TB, tools []runtime.Tool) {
	t.Helper()
	for _, tool := range tools {
		docs := Corpus(tool.InputSchema, CheckSeed)
		if len(docs) == 0 {
			t.Errorf("tool %s: no corpus: its input schema is not JSON: %.200s", tool.Name, tool.InputSchema)
			continue
		}
		for _, ex := range tool.Examples {
			docs = append(docs, ex.Args)
		}
		failed := 0
		for _, doc := range docs {
			msg := Compare(tool, doc)
			if msg == "" {
				continue
			}
			failed++
			if failed <= maxReports {
				t.Errorf("tool %s: %s", tool.Name, msg)
			}
		}
		if failed > maxReports {
			t.Errorf("tool %s: %d more %s not shown (of %s)", tool.Name, failed-maxReports, plural.Noun(failed-maxReports, "disagreement"), plural.Of(len(docs), "document"))
		}
	}
}

// Compare checks one document against one tool and returns a description of a disagreement,
// or "" when both sides agree.
//
// The decoder's side is Bind: nil means it accepts, an *runtime.ArgsError with at least one
// problem means it refuses; any other error, an ArgsError without problems, or a panic is
// reported whatever the validator says. For a document in an exception class (see
// [Exception]) only that much is checked, since the two sides may rightly differ there. A
// schema the validator cannot compile is reported too.
func Compare(tool runtime.Tool, doc []byte) string {
	accepted, decoderSays, problems := bind(tool, doc)
	if decoderSays != "" && !strings.HasPrefix(decoderSays, "refuses") {
		return fmt.Sprintf("document %s: generated decoder %s", shown(doc), decoderSays)
	}
	if Exception(doc) != "" {
		return ""
	}
	sch, err := compiled(tool.InputSchema)
	if err != nil {
		return fmt.Sprintf("the input schema does not compile: %v", err)
	}
	inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return "" // unreachable: Exception has parsed it
	}
	verr := sch.Validate(inst)
	if (verr == nil) == accepted || verr == nil && rounded(problems) || byFormatRules(tool.InputSchema, inst, accepted) {
		return ""
	}
	validatorSays := "accepts"
	if verr != nil {
		// Drop the first line, "jsonschema validation failed with 'URL'"; keep the causes.
		msg := verr.Error()
		if _, causes, found := strings.Cut(msg, "\n"); found {
			msg = causes
		}
		validatorSays = "refuses: " + oneLine(msg)
	}
	if accepted {
		decoderSays = "accepts"
	}
	return fmt.Sprintf("document %s:\n\tschema validator %s\n\tgenerated decoder %s", shown(doc), validatorSays, decoderSays)
}

// bind runs the decoder. says is "" when it accepts, "refuses: problems" when it refuses as
// it should, and a description of the misbehaviour otherwise.
func bind(tool runtime.Tool, doc []byte) (accepted bool, says string, problems []runtime.Problem) {
	defer func() {
		if r := recover(); r != nil {
			accepted, says, problems = false, fmt.Sprintf("panics: %v", r), nil
		}
	}()
	// A private copy: the decoder must not depend on the caller's buffer after it returns,
	// and must not write to it.
	in := append([]byte(nil), doc...)
	call, err := tool.BindArgs(context.Background(), in)
	if errors.Is(err, runtime.ErrNotBindable) {
		return false, "is missing (the tool has no binding)", nil
	}
	if !bytes.Equal(in, doc) {
		return false, "modified its input", nil
	}
	if err == nil {
		if call == nil {
			return false, "returned neither a call nor an error", nil
		}
		return true, "", nil
	}
	var ae *runtime.ArgsError
	if !errors.As(err, &ae) {
		return false, fmt.Sprintf("returned %T, not *runtime.ArgsError: %v", err, err), nil
	}
	if len(ae.Problems) == 0 {
		return false, "returned an ArgsError without problems", nil
	}
	list := make([]string, len(ae.Problems))
	for i, p := range ae.Problems {
		list[i] = p.String()
	}
	return false, "refuses: " + oneLine(strings.Join(list, "; ")), ae.Problems
}

// rounded reports whether every problem is a number that meets its bound as the decimal the
// model sent but not as the float the Go field holds (0.99999999999999999999 for
// exclusiveMaximum=1 becomes 1): the decoder refuses what the schema allows, by design.
func rounded(problems []runtime.Problem) bool {
	for _, p := range problems {
		if !strings.Contains(p.Message, ", which rounds to ") {
			return false
		}
	}
	return len(problems) > 0
}

// byFormatRules reports whether the decoder's verdict on inst is the validator's once the
// validator checks every format with the decoder's checkers: the two then differ only where
// toolgen's format rules follow the RFCs and the validator's do not (see the package doc).
func byFormatRules(schema []byte, inst any, accepted bool) bool {
	sch, err := compiledWith(schema, true)
	return err == nil && (sch.Validate(inst) == nil) == accepted
}

// schemaURL names the schema under test for the validator; nothing is fetched from it.
const schemaURL = "https://toolgen.invalid/input-schema.json"

var schemaCache sync.Map // cacheKey → compiledSchema

type cacheKey struct {
	schema         string
	toolgenFormats bool
}

type compiledSchema struct {
	schema *jsonschema.Schema
	err    error
}

// compiled returns the validator for a schema, compiled once: draft 2020-12 by default, with
// format assertion on (toolgen's decoder checks formats, so the validator must too) and the
// validator's own format rules.
func compiled(schema []byte) (*jsonschema.Schema, error) { return compiledWith(schema, false) }

// compiledWith is compiled, with the decoder's format rules instead of the validator's when
// toolgenFormats is set.
func compiledWith(schema []byte, toolgenFormats bool) (*jsonschema.Schema, error) {
	key := cacheKey{string(schema), toolgenFormats}
	if c, ok := schemaCache.Load(key); ok {
		return c.(compiledSchema).schema, c.(compiledSchema).err
	}
	var c compiledSchema
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		c.err = err
	} else {
		comp := jsonschema.NewCompiler()
		comp.DefaultDraft(jsonschema.Draft2020)
		comp.AssertFormat()
		if toolgenFormats {
			schemaformat.Register(comp)
		}
		if c.err = comp.AddResource(schemaURL, doc); c.err == nil {
			c.schema, c.err = comp.Compile(schemaURL)
		}
	}
	schemaCache.Store(key, c)
	return c.schema, c.err
}

// goDuration is the syntax of a Go duration as toolgen's schema states it for
// time.Duration fields.
var goDuration = regexp.MustCompile(schema.DurationPattern)

// maxFloat32 is the largest float32; a number beyond it may overflow the Go field.
var maxFloat32 = new(big.Rat).SetFloat64(math.MaxFloat32)

// Exception returns which documented exception class doc falls in, or "" when the decoder
// and the validator must agree on it:
//   - "not JSON": not a single JSON value in UTF-8;
//   - "duplicate property name": an object names a property twice (the decoder refuses it,
//     the validator sees only the last);
//   - "integer beyond ±2^53" and "number beyond the float32 range": numbers the schema cannot
//     bound exactly and the Go field may not hold;
//   - "duration overflows time.Duration": a string in Go duration syntax that
//     time.ParseDuration refuses.
func Exception(doc []byte) string {
	if !utf8.Valid(doc) {
		return "not JSON"
	}
	if _, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc)); err != nil {
		return "not JSON"
	}
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	// One frame per open container: the keys seen so far for an object, nil for an array.
	type frame struct {
		keys    map[string]bool
		wantKey bool
	}
	var stack []*frame
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			return ""
		}
		if err != nil {
			return "not JSON"
		}
		var top *frame
		if len(stack) > 0 {
			top = stack[len(stack)-1]
		}
		inObject := top != nil && top.keys != nil
		if inObject && top.wantKey {
			if key, ok := tok.(string); ok {
				if top.keys[key] {
					return "duplicate property name"
				}
				top.keys[key] = true
				top.wantKey = false
			} else {
				stack = stack[:len(stack)-1] // the object's '}'
			}
			continue
		}
		if inObject {
			top.wantKey = true // after this value, the next key or '}'
		}
		switch tok := tok.(type) {
		case json.Delim:
			switch tok {
			case '{':
				stack = append(stack, &frame{keys: map[string]bool{}, wantKey: true})
			case '[':
				stack = append(stack, &frame{})
			default:
				stack = stack[:len(stack)-1]
			}
		case string:
			if goDuration.MatchString(tok) {
				if _, err := time.ParseDuration(tok); err != nil {
					return "duration overflows time.Duration"
				}
			}
		case json.Number:
			r, ok := new(big.Rat).SetString(string(tok))
			if !ok {
				return "not JSON"
			}
			abs := r.Abs(r)
			if abs.IsInt() && abs.Cmp(maxSafeInteger) > 0 {
				return "integer beyond ±2^53"
			}
			if abs.Cmp(maxFloat32) > 0 {
				return "number beyond the float32 range"
			}
		}
	}
}

// shown quotes a document for a report, cut when long.
func shown(doc []byte) string {
	const limit = 300
	if len(doc) > limit {
		return fmt.Sprintf("%q… (%d bytes)", doc[:limit], len(doc))
	}
	return fmt.Sprintf("%q", doc)
}

// oneLine folds a multi-line message (the validator's error tree) into one line.
func oneLine(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) > 400 {
		s = s[:400] + "…"
	}
	return s
}
