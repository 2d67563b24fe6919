package benchmarks

import (
	"context"
	goruntime "runtime"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolgen-go/toolgen/examples/orders/orders"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/xmlcall"
)

// hostileOrder is a valid create_order document with a hole the cases fill: the items, or
// text added to the end of the arguments object.
func hostileOrder(items, extra string) string {
	return `{"customer":{"id":"C-1","name":"Jo","email":"jo@example.com"},"items":[` + items +
		`],"shipping":{"lines":["1 Main St"],"city":"Springfield","postal_code":"12345","country":"US"}` + extra + `}`
}

const hostileItem = `{"sku":"ABC-1234","name":"Lamp","qty":1,"price":9.5}`

func itemWith(field, value string) string {
	return strings.Replace(hostileItem, `"`+field+`":`+map[string]string{"qty": "1", "price": "9.5"}[field], `"`+field+`":`+value, 1)
}

func repeatJoined(s string, n int) string {
	return strings.TrimSuffix(strings.Repeat(s+",", n), ",")
}

// hostileCase is one document an attacker may send, with what must come of it.
type hostileCase struct {
	name string
	tool string
	doc  string
	// want is a fragment of the text the model reads; "" means the call succeeds.
	want string
}

func hostileCases() []hostileCase {
	hugeExponents := hostileOrder(repeatJoined(itemWith("qty", "1e999999"), 60), "")
	return []hostileCase{
		{"valid", "create_order", hostileOrder(hostileItem, ""), ""},
		{"integer 1e999999", "create_order", hostileOrder(itemWith("qty", "1e999999"), ""), "/items/0/qty: must be at most"},
		{"integer -1e999999", "create_order", hostileOrder(itemWith("qty", "-1e999999"), ""), "/items/0/qty: must be at least"},
		{"4 KB of huge exponents", "create_order", hugeExponents, "… and 10 more problems"},
		{"float 1e-999999 past exclusiveMinimum=0", "create_order", hostileOrder(itemWith("price", "1e-999999"), ""), "which rounds to 0 as a 64-bit float"},
		{"float 1e999999", "create_order", hostileOrder(itemWith("price", "1e999999"), ""), "within the range of a 64-bit float"},
		{"integer beyond int64", "create_order", hostileOrder(itemWith("qty", "-9223372036854775809"), ""), "/items/0/qty: must be at least -9223372036854775808"},
		{"integral decimal", "create_order", hostileOrder(itemWith("qty", "7.000000000000000000000"), ""), ""},
		{"NaN", "create_order", hostileOrder(itemWith("price", "NaN"), ""), "not valid JSON"},
		{"Infinity", "create_order", hostileOrder(itemWith("price", "Infinity"), ""), "not valid JSON"},
		{"byte order mark", "create_order", "\uFEFF" + hostileOrder(hostileItem, ""), "not valid JSON"},
		{"lone surrogate", "create_order", hostileOrder(hostileItem, `,"notes":"\ud800 and \udc00"`), ""},
		{"invalid UTF-8", "create_order", hostileOrder(hostileItem, ",\"notes\":\"\xff\xfe\""), ""},
		{"duplicate key", "create_order", hostileOrder(hostileItem, `,"notes":"a","notes":"b"`), "/notes: property appears more than once"},
		{"100k properties past maxProperties", "list_orders", `{"customers":{` + repeatJoined(`"c":1`, 100_000) + `}}`, "/customers: must have at most 10 properties, got 100000"},
		{"100k unknown properties", "create_order", hostileOrder(hostileItem, strings.Repeat(`,"x":1`, 100_000)), "more problems"},
		{"huge key", "create_order", hostileOrder(hostileItem, `,"`+strings.Repeat("k", 900_000)+`":1`), "unknown property"},
		{"1 MB string past maxLength", "create_order", hostileOrder(hostileItem, `,"notes":"`+strings.Repeat("é", 500_000)+`"`), "/notes: must be at most 2000 characters long, got 500000"},
		{"10 MB string", "create_order", hostileOrder(hostileItem, `,"notes":"`+strings.Repeat("x", 10<<20)+`"`), "bytes this tool accepts"},
		{"1 MB of {} past maxItems=100", "create_order", hostileOrder(repeatJoined("{}", 300_000), ""), "/items: must have at most 100 items, got 300000"},
		{"10 MB of {}", "create_order", hostileOrder(repeatJoined("{}", 3_500_000), ""), "bytes this tool accepts"},
		{"deep nesting", "create_order", hostileOrder(hostileItem, `,"notes":`+strings.Repeat("[", 100_000)+strings.Repeat("]", 100_000)), "more than 128 levels deep"},
		{"deep nesting in a string", "create_order", hostileOrder(hostileItem, `,"notes":"`+strings.Repeat("[", 1000)+`"`), ""},
	}
}

// TestHostileInput runs documents an attacker may send through Registry.Invoke with its
// defaults, and holds each to its expected outcome, to a message the model can read (never
// larger than a few KB), to a time within a generous ratio of what encoding/json spends on
// the same document, and to a bound on the bytes allocated.
func TestHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds documents of 10 MB")
	}
	// Defaults, but an approver, so that valid orders run.
	reg := runtime.NewRegistry(runtime.WithApprover(runtime.ApproverFunc(func(context.Context, runtime.ApprovalRequest) (runtime.Decision, error) {
		return runtime.Decision{Approved: true}, nil
	})))
	require.NoError(t, reg.Add(new(orders.Service).Tools()...))
	for _, c := range hostileCases() {
		t.Run(c.name, func(t *testing.T) {
			data := []byte(c.doc)
			call := runtime.Call{Name: c.tool, Args: data}
			res := reg.Invoke(context.Background(), call)
			if c.want == "" {
				assert.False(t, res.IsError, "%.300s", res.Text)
			} else {
				assert.True(t, res.IsError)
				assert.Contains(t, res.Text, c.want)
			}
			assert.LessOrEqual(t, len(res.Text), 10<<10, "what the model reads is capped")

			// Nothing is built past a limit: a call allocates little beyond the document
			// (the largest accepted strings are copied once). A cost that grew with an
			// exponent (a big.Float of 1e999999) would allocate far beyond; the bound is in
			// bytes, not time, so that a noisy machine cannot fail it.
			bytes := allocated(func() { reg.Invoke(context.Background(), call) })
			assert.LessOrEqual(t, bytes, uint64(len(data))+256<<10, "Invoke allocated %d bytes", bytes)
		})
	}
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	f()
	goruntime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// TestHostileNumbersThroughXMLCall sends huge exponents through the XML call path, which
// converts parameters to JSON and leaves numbers to the same generated decoder: their cost
// stays that of their length there too.
func TestHostileNumbersThroughXMLCall(t *testing.T) {
	reg := runtime.NewRegistry()
	require.NoError(t, reg.Add(new(orders.Service).Tools()...))
	var reply strings.Builder
	for range 64 { // the most calls one reply may hold
		reply.WriteString(xmlcall.RenderCall(xmlcall.Call{Name: "list_orders", Params: []xmlcall.Param{{Name: "limit", Value: "1e999999"}}}))
	}
	turn := xmlcall.Run(context.Background(), reg, reply.String())
	require.Len(t, turn.Outcomes, 64)
	assert.Contains(t, turn.Outcomes[63].Result.Text, "/limit: must be at most")
	// The XML path parses markup too, and converts each parameter to JSON; a number's cost
	// that grew with its exponent would allocate megabytes a call.
	bytes := allocated(func() { xmlcall.Run(context.Background(), reg, reply.String()) })
	assert.LessOrEqual(t, bytes, uint64(64*reply.Len())+1<<20, "xmlcall.Run allocated %d bytes", bytes)
}
