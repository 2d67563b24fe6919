// Package email declares send_email, the medium-sized tool of toolgen's benchmarks: an email
// format, length bounds, an optional bounded integer and an array of emails.
package email

//go:generate go tool toolgen

import (
	"context"
	"fmt"
	"strings"
)

// SendEmailArgs are the arguments of send_email.
type SendEmailArgs struct {
	// Recipient address.
	To string `json:"to" tool:"format=email"`
	// Subject line.
	Subject string `json:"subject" tool:"minLength=1,maxLength=200"`
	// Body text, plain text only.
	Body string `json:"body" tool:"minLength=1,maxLength=10000"`
	// Carbon-copy recipients.
	CC []string `json:"cc,omitempty" tool:"maxItems=20,format=email"`
	// Priority from 1 (highest) to 5 (lowest).
	Priority int `json:"priority,omitempty" tool:"minimum=1,maximum=5,default=3"`
}

// Receipt confirms a message was queued.
type Receipt struct {
	// MessageID identifies the queued message.
	MessageID string `json:"message_id"`
	// Recipients is how many addresses the message goes to.
	Recipients int `json:"recipients"`
}

// Outbox is where sent messages go; a real program would hold an SMTP client here.
type Outbox struct {
	Sent []SendEmailArgs
}

// SendEmail sends a plain-text email to one recipient, with optional copies.
//
// The message is queued at once; delivery is asynchronous.
//
//tool:name send_email
//tool:confirm sends an email on the user's behalf
//tool:risk high
//tool:hints openworld
//tool:retry max=2 delay=500ms backoff=2 maxdelay=2s
//tool:example "Send the Q3 summary" {"to":"alice@example.com","subject":"Q3","body":"Summary attached."}
func (o *Outbox) SendEmail(ctx context.Context, args SendEmailArgs) (Receipt, error) {
	if strings.HasSuffix(args.To, ".invalid") {
		return Receipt{}, fmt.Errorf("the domain of %s does not accept mail", args.To)
	}
	o.Sent = append(o.Sent, args)
	return Receipt{MessageID: fmt.Sprintf("msg-%d", len(o.Sent)), Recipients: 1 + len(args.CC)}, nil
}
