package agreement_test

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/gen/agreement"
	"github.com/toolgen-go/toolgen/runtime"
)

// TestSeedsAreWhatTheDecoderSays holds the seeds of every example tool to the generated
// decoder: a valid seed binds, an invalid one is refused with problems at exactly its
// pointers, in its order.
func TestSeedsAreWhatTheDecoderSays(t *testing.T) {
	for name, tools := range exampleTools() {
		for _, tool := range tools {
			t.Run(name+"/"+tool.Name, func(t *testing.T) {
				var examples [][]byte
				for _, ex := range tool.Examples {
					examples = append(examples, ex.Args)
				}
				seeds := agreement.Seeds(tool.InputSchema, examples)
				kinds := map[bool]int{}
				for _, s := range seeds {
					kinds[s.Problems == nil]++
					_, err := tool.BindArgs(context.Background(), s.Args)
					if s.Problems == nil {
						assert.NoError(t, err, "%s: %s", s.Note, s.Args)
						continue
					}
					var argsErr *runtime.ArgsError
					if !assert.True(t, errors.As(err, &argsErr), "%s: %s: %v", s.Note, s.Args, err) {
						continue
					}
					var got []string
					for _, p := range argsErr.Problems {
						got = append(got, p.Path)
					}
					assert.Equal(t, s.Problems, got, "%s: %s: %v", s.Note, s.Args, err)
				}
				require.NotZero(t, kinds[false], "no invalid seed")
				if testing.Verbose() {
					for _, s := range seeds {
						b, _ := json.Marshal(s.Problems)
						t.Logf("%-40s %s %s", s.Note, s.Args, b)
					}
				}
			})
		}
	}
}
