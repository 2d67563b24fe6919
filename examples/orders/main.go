// Command orders registers the order service's tools and runs a short conversation's worth of
// calls against them, printing what a model would read.
package main

import (
	"context"
	"fmt"
	"os"
	"time"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	svc := &orders.Service{Now: func() time.Time { return time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC) }}
	reg := runtime.NewRegistry()
	if err := reg.Add(svc.Tools()...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	calls := []runtime.Call{
		{Name: "create_order", Args: []byte(`{"customer":{"id":"C-1","name":"Ada","email":"ada@example.com"},` +
			`"items":[{"sku":"ABC-1234","name":"Lamp","qty":2,"price":19.5,"tags":["home"]}],` +
			`"shipping":{"lines":["1 Main St"],"city":"Springfield","postal_code":"12345","country":"US"}}`)},
		{Name: "create_order", Args: []byte(`{"customer":{"id":"","name":"Ada","email":"ada"},` +
			`"items":[{"sku":"abc-1","name":"Lamp","qty":0,"price":0}],` +
			`"shipping":{"lines":[],"city":"Springfield","postal_code":"12345","country":"XX"},"note":"hi"}`)},
		{Name: "list_orders", Args: []byte(`{"status":0,"since":"2026-01-01T00:00:00Z"}`)},
		{Name: "get_order", Args: []byte(`{"id":"ord-9"}`)},
	}
	for i, call := range calls {
		call.ID = fmt.Sprintf("call_%d", i+1)
		res := reg.Invoke(context.Background(), call)
		fmt.Printf("== %s %s -> error=%v\n%s\n\n", call.ID, call.Name, res.IsError, res.Text)
	}
}
