// Command weather shows toolgen's get_weather tool at work: it registers the generated tool,
// prints the catalog and the input schema the model sees, and invokes the tool with a valid
// call and with invalid ones, printing exactly what a model would read back.
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
)

func main() {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}

	fmt.Println("== catalog")
	for _, t := range reg.Tools() {
		fmt.Printf("%s: %s\n", t.Name, t.Description)
	}

	tool, _ := reg.Tool("get_weather")
	fmt.Println("\n== input schema of get_weather")
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, tool.InputSchema, "", "  ")
	fmt.Println(pretty.String())

	calls := []runtime.Call{
		{ID: "call_1", Name: "get_weather", Args: []byte(`{"city":"Tokyo","days":2}`)},
		{ID: "call_2", Name: "get_weather", Args: []byte(`{"citty":"Tokyo","unit":"kelvin","days":9}`)},
		{ID: "call_3", Name: "get_weather", Args: []byte(`{"city":"","unit":42}`)},
		{ID: "call_4", Name: "get_weather", Args: []byte(`{"city":"Atlantis"}`)},
		{ID: "call_5", Name: "get_wether", Args: []byte(`{"city":"Tokyo"}`)},
	}
	for _, call := range calls {
		res := reg.Invoke(context.Background(), call)
		status := "ok"
		if res.IsError {
			status = "error"
		}
		fmt.Printf("\n== %s %s %s -> %s\n%s\n", call.ID, call.Name, call.Args, status, res.Text)
	}
}
