// Command email registers the send_email tool (//tool:confirm, risk high, retried, email
// format), bound to an Outbox, and invokes it the way a model would. send_email never runs
// without a decision: a terminal prompt shows the reason, the risk and the validated
// arguments, and reads y or n.
//
//	go run ./examples/email          # asks on the terminal
//	go run ./examples/email -yes     # approves every call (for scripts)
//	go run ./examples/email </dev/null
//
// When stdin is not answered (closed, empty, or not a terminal that replies), every call is
// denied: approval fails closed, and the program still ends.
package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"sync"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	yes := flag.Bool("yes", false, "approve every call without asking")
	flag.Parse()

	outbox := &email.Outbox{}
	var approver runtime.Approver = &terminalApprover{in: bufio.NewReader(os.Stdin), out: os.Stdout}
	if *yes {
		approver = runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
			return runtime.Decision{Approved: true, By: "-yes flag"}, nil
		})
	}
	reg := runtime.NewRegistry(runtime.WithApprover(approver))
	if err := reg.Add(outbox.Tools()...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, args := range []string{
		`{"to":"alice@example.com","subject":"Q3 review","body":"See you at 10.","cc":["bob@example.com"],"priority":2}`,
		// Invalid: nobody is asked to approve a malformed call.
		`{"to":"alice(at)example.com","subject":"","body":"x","cc":["bob@example.com","nope"],"priority":9}`,
	} {
		res := reg.Invoke(context.Background(), runtime.Call{ID: "call", Name: "send_email", Args: []byte(args)})
		fmt.Printf("%s\n-> error=%v kind=%q attempts=%d\n%s\n\n", args, res.IsError, res.Kind, res.Attempts, res.Text)
	}
	fmt.Printf("messages in the outbox: %d\n", len(outbox.Sent))
}

// terminalApprover asks on a terminal. A read error or end of input denies: the approver
// never approves what nobody answered.
type terminalApprover struct {
	mu  sync.Mutex // one question at a time, even when calls run in parallel
	in  *bufio.Reader
	out io.Writer
}

func (a *terminalApprover) Approve(_ context.Context, req runtime.ApprovalRequest) (runtime.Decision, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	fmt.Fprintf(a.out, "\n%s wants to run: %s (risk %s)\n  arguments: %s\nApprove? [y/N] ", req.Tool, req.Reason, req.Risk, req.RawArgs)
	line, err := a.in.ReadString('\n')
	answer := strings.ToLower(strings.TrimSpace(line))
	switch {
	case answer == "y" || answer == "yes":
		return runtime.Decision{Approved: true, By: "terminal"}, nil
	case err != nil:
		fmt.Fprintln(a.out, "(no answer)")
		return runtime.Decision{By: "terminal", Reason: "nobody was there to approve it"}, nil
	}
	return runtime.Decision{By: "terminal", Reason: "the user said no"}, nil
}
