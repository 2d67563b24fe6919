package agreement_test

import (
	"testing"

	"github.com/toolgen-go/toolgen/examples/email/email"
	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/gen/agreement"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/toolkit/workspace"
)

// exampleTools are the tools of every example package: the generated code users see first.
func exampleTools() map[string][]runtime.Tool {
	return map[string][]runtime.Tool{
		"weather": weather.Tools(),
		"email":   new(email.Outbox).Tools(),
		"orders":  new(orders.Service).Tools(),
		// The built-in toolkits are generated code users run as is.
		"workspace": workspace.New(nil).Tools(),
	}
}

func TestExamplesAgree(t *testing.T) {
	for name, tools := range exampleTools() {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			agreement.Check(t, tools)
		})
	}
}
