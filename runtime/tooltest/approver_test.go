package tooltest_test

import (
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/tooltest"
)

func TestApproverAnswersFromItsScript(t *testing.T) {
	var runs atomic.Int32
	approver := tooltest.NewApprover(t,
		tooltest.Approve("send_mail"),
		tooltest.Deny("send_mail", "not to Eve"),
		tooltest.ApproveWithArgs("send_mail", `{"to":"bob@example.com"}`),
	)
	reg := runtime.NewRegistry(runtime.WithApprover(approver))
	require.NoError(t, reg.Add(sendMail(&runs)))

	tooltest.Call(t, reg, "send_mail", `{"to":"ann@example.com"}`).RequireText(t, "sent to ann@example.com")
	tooltest.Call(t, reg, "send_mail", `{"to":"eve@example.com"}`).RequireError(t, "The user denied this call", "not to Eve")
	tooltest.Call(t, reg, "send_mail", `{"to":"mallory@example.com"}`).RequireText(t, "sent to bob@example.com")
	assert.EqualValues(t, 2, runs.Load())

	asked := approver.Requests()
	require.Len(t, asked, 3)
	assert.Equal(t, "send_mail", asked[0].Tool)
	assert.JSONEq(t, `{"to":"ann@example.com"}`, string(asked[0].RawArgs))
	assert.Equal(t, "sends a mail in the user's name", asked[0].Reason)
	assert.JSONEq(t, `{"to":"mallory@example.com"}`, string(asked[2].RawArgs), "the approver is shown what the model sent")
}

func TestApproverFailsTheTestOffScript(t *testing.T) {
	for name, tc := range map[string]struct {
		answers []tooltest.Answer
		calls   int
		want    string
	}{
		"an answer left unused": {answers: []tooltest.Answer{tooltest.Approve("send_mail"), tooltest.Deny("send_mail", "no")}, calls: 1,
			want: "approver answer 2 (deny for send_mail) was never asked for"},
		"asked past the script": {answers: []tooltest.Answer{tooltest.Approve("send_mail")}, calls: 2,
			want: "but its script has 1 answers"},
		"asked about another tool": {answers: []tooltest.Answer{tooltest.Approve("delete_file")}, calls: 1,
			want: "but its script answers delete_file"},
	} {
		t.Run(name, func(t *testing.T) {
			var runs atomic.Int32
			var results []*tooltest.Result
			failures := record(t, "TestOffScript", func(rt testing.TB) {
				reg := runtime.NewRegistry(runtime.WithApprover(tooltest.NewApprover(rt, tc.answers...)))
				require.NoError(t, reg.Add(sendMail(&runs)))
				for range tc.calls {
					results = append(results, tooltest.Call(rt, reg, "send_mail", `{"to":"ann@example.com"}`))
				}
			})
			require.Len(t, failures, 1, "%q", failures)
			assert.Contains(t, failures[0], tc.want)
			if name != "an answer left unused" {
				last := results[len(results)-1]
				assert.True(t, last.IsError, "an unscripted request is denied: approval fails closed")
			}
			assert.LessOrEqual(t, int(runs.Load()), 1)
		})
	}
}
