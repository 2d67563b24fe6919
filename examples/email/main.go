// Command email registers the send_email tool, bound to an Outbox, and invokes it with a valid
// call and an invalid one.
package main

import (
	"context"
	"fmt"
	"os"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	outbox := &email.Outbox{}
	reg := runtime.NewRegistry()
	if err := reg.Add(email.OutboxTools(outbox)...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	for _, args := range []string{
		`{"to":"alice@example.com","subject":"Q3 review","body":"See you at 10.","cc":["bob@example.com"],"priority":2}`,
		`{"to":"alice(at)example.com","subject":"","body":"x","cc":["bob@example.com","nope"],"priority":9}`,
	} {
		res := reg.Invoke(context.Background(), runtime.Call{ID: "call", Name: "send_email", Args: []byte(args)})
		fmt.Printf("%s\n-> error=%v\n%s\n\n", args, res.IsError, res.Text)
	}
	fmt.Printf("messages in the outbox: %d\n", len(outbox.Sent))
}
