package runtime_test

import (
	"context"
	"fmt"
	"time"

	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/variant"
)

func ExampleRegistry_Invoke() {
	type greetArgs struct {
		Name string `json:"name"`
	}
	// Generated code returns tools like this one from its Tools function.
	greet := jsonTool("greet", func(_ context.Context, a greetArgs) runtime.Result {
		return runtime.TextResult("Hello, " + a.Name + "!")
	})

	reg := runtime.NewRegistry()
	if err := reg.Add(greet); err != nil {
		fmt.Println(err)
		return
	}
	ctx := context.Background()

	res := reg.Invoke(ctx, runtime.Call{ID: "call_1", Name: "greet", Args: []byte(`{"name":"Ada"}`)})
	fmt.Println(res.Text, res.IsError, res.Attempts)

	res = reg.Invoke(ctx, runtime.Call{ID: "call_2", Name: "gret", Args: []byte(`{"name":"Ada"}`)})
	fmt.Println(res.Text)

	res = reg.Invoke(ctx, runtime.Call{ID: "call_3", Name: "greet", Args: []byte(`{"nmae":"Ada"}`)})
	fmt.Println(res.Text)
	// Output:
	// Hello, Ada! false 1
	// unknown tool "gret"; did you mean "greet"? Available tools: greet
	// invalid arguments for greet: /nmae: unknown property
	// Correct the arguments and call greet again.
}

// Generated tools name the provider variants to derive; Variant converts the canonical schema
// on first use and keeps the result.
func ExampleTool_Variant() {
	tool := runtime.Tool{
		Name:        "get_weather",
		InputSchema: []byte(`{"type":"object","properties":{"city":{"type":"string","minLength":1},"unit":{"type":"string"}},"required":["city"],"additionalProperties":false}`),
		Dialects:    []string{variant.OpenAI},
	}
	v, ok := tool.Variant(variant.OpenAI)
	fmt.Println(ok, v.Strict, v.NullMeansAbsent)
	fmt.Println(string(v.Schema))
	_, ok = tool.Variant(variant.GeminiParameters)
	fmt.Println(ok)
	// Output:
	// true true [/unit]
	// {"type":"object","properties":{"city":{"type":"string","description":"(at least 1 char)"},"unit":{"type":["string","null"]}},"required":["city","unit"],"additionalProperties":false}
	// false
}

// A registry serving several callers: each sees and runs the tools its grant allows.
func ExampleWithGrant() {
	reg := runtime.NewRegistry()
	run := func(name string, scopes ...string) runtime.Tool {
		return runtime.Tool{Name: name, Scopes: scopes, Bind: func(context.Context, []byte) (runtime.BoundCall, error) {
			return exampleCall(name), nil
		}}
	}
	if err := reg.Add(run("list_issues"), run("merge_pull", "repo:write")); err != nil {
		panic(err)
	}
	reader := runtime.WithGrant(context.Background(), runtime.Grant{})
	writer := runtime.WithGrant(context.Background(), runtime.Grant{Scopes: []string{"repo:write"}})
	fmt.Println(reg.NamesFor(reader), reg.NamesFor(writer))
	fmt.Println(reg.Invoke(reader, runtime.Call{Name: "merge_pull"}).Text)
	fmt.Println(reg.Invoke(writer, runtime.Call{Name: "merge_pull"}).Text)
	// Output:
	// [list_issues] [list_issues merge_pull]
	// unknown tool "merge_pull". Available tools: list_issues
	// merge_pull ran
}

type exampleCall string

func (c exampleCall) Args() any { return nil }
func (c exampleCall) Run(context.Context) runtime.Result {
	return runtime.TextResult(string(c) + " ran")
}

// A call sent again with the same idempotency key returns the first result; the tool ran
// once. With replicas, the registries share the records through their session store
// (runtime/redisstore).
func ExampleWithIdempotency() {
	type chargeArgs struct {
		Amount int `json:"amount"`
	}
	charges := 0
	charge := jsonTool("charge", func(_ context.Context, a chargeArgs) runtime.Result {
		charges++
		return runtime.TextResult(fmt.Sprintf("charged %d (charge #%d)", a.Amount, charges))
	})
	reg := runtime.NewRegistry(runtime.WithIdempotency(runtime.Idempotency{Window: time.Hour}))
	if err := reg.Add(charge); err != nil {
		fmt.Println(err)
		return
	}
	call := runtime.Call{Name: "charge", Args: []byte(`{"amount":5}`), Session: "alice", IdempotencyKey: "6f1c0d8e-charge"}
	first := reg.Invoke(context.Background(), call)
	retry := reg.Invoke(context.Background(), call)
	fmt.Println(first.Text, first.Replayed)
	fmt.Println(retry.Text, retry.Replayed)

	call.Args = []byte(`{"amount":50}`)
	fmt.Println(reg.Invoke(context.Background(), call).Text)
	// Output:
	// charged 5 (charge #1) false
	// charged 5 (charge #1) true
	// charge was not run: its idempotency key was already used in this session for a different call (another tool, or other arguments). A retry must repeat its call exactly; a new call needs a new key.
}
