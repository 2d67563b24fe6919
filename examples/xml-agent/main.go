// Command xml-agent shows a model without a native tool API using toolgen tools through XML,
// with progressive disclosure: the system prompt holds the one-line catalog and how to call
// get_tool_info; the model asks for a tool's details, then calls it with <tool_call> blocks,
// and reads the results back as <tool_result> elements.
//
// The model is scripted (its replies are fixed strings) so the example runs offline and
// prints the same conversation every time.
package main

import (
	"context"
	"fmt"
	"io"
	"os"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/disclosure"
	"github.com/toolgen-go/toolgen/runtime/repair"
	"github.com/toolgen-go/toolgen/runtime/xmlcall"
)

// replies are what the scripted model writes, one per turn: it learns about get_weather,
// calls it twice in one reply (once with a value that is not an integer), then corrects the
// failed call, sloppily: in the other XML layout, with the tool name in camel case and a
// closing tag missing. The registry repairs the name and the reading recovers the tag, and
// the result tells the model both.
var replies = []string{
	`Let me see how the weather tool works.
<tool_call name="get_tool_info">
<parameter name="name">get_weather</parameter>
</tool_call>`,
	`<tool_call name="get_weather">
<parameter name="city">Tokyo</parameter>
</tool_call>
<tool_call name="get_weather">
<parameter name="city">Oslo</parameter>
<parameter name="days">two</parameter>
</tool_call>`,
	`Sorry, fixing the forecast length.
<tool_call>
  <name>getWeather</name>
  <params>
    <city>Oslo</city>
    <days>2
  </params>
</tool_call>`,
}

func main() {
	if err := run(context.Background(), os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func run(ctx context.Context, w io.Writer) error {
	reg := runtime.NewRegistry(runtime.WithRepair(repair.New()))
	if err := reg.Add(weather.Tools()...); err != nil {
		return err
	}
	d, err := disclosure.New(reg)
	if err != nil {
		return err
	}
	// The model starts with the catalog and one tool it can call: get_tool_info. Everything
	// else it learns by asking.
	system := d.Catalog() + "\n\n" + xmlcall.Instructions([]runtime.Tool{d.InfoTool()})
	fmt.Fprintf(w, "== system prompt\n%s\n", system)

	for i, reply := range replies {
		fmt.Fprintf(w, "\n== model, turn %d\n%s\n", i+1, reply)
		turn := xmlcall.Run(ctx, d, reply)
		fmt.Fprintf(w, "\n== tool results, turn %d\n%s\n", i+1, turn.Results())
	}
	return nil
}
