package repair_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/repair"
)

func ExampleNew() {
	reg := runtime.NewRegistry(runtime.WithRepair(repair.New()))
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	res := reg.Invoke(context.Background(), runtime.Call{Name: "getWeather", Args: []byte("```json\n{\"city\": \"Oslo\", \"days\": \"1\",}\n```")})
	fmt.Println(res.IsError)
	for _, r := range res.Metadata[runtime.MetadataRepairs].([]runtime.Repair) {
		fmt.Printf("%q %s: %s\n", r.Path, r.Kind, runtime.RepairMessage(r))
	}
	// Output:
	// false
	// "" tool_name: the tool is called get_weather, not getWeather
	// "" markdown_fence: the arguments were wrapped in a Markdown code fence; send the JSON alone
	// "" trailing_comma: a comma before a closing } or ]; remove it
	// "/days" number_as_string: a number was sent as the string "1"; write 1 without quotes
}

func ExampleAnnotate() {
	reg := runtime.NewRegistry(runtime.WithArgsFeedback(repair.Annotate))
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	res := reg.Invoke(context.Background(), runtime.Call{Name: "get_weather", Args: []byte(`{"citty":"Tokyo","days":9}`)})
	fmt.Println(res.Text)
	// Output:
	// invalid arguments for get_weather; your arguments, each problem marked with ❌:
	// ```json
	// {
	//   "citty": "Tokyo", // ❌ unknown property, did you mean "city"?
	//   "days": 9, // ❌ must be at most 7, got 9 (schema: {"default":0,"maximum":7,"minimum":0,"type":"integer"})
	//   "city": undefined // ❌ required property is missing (schema: {"minLength":1,"type":"string"})
	// }
	// ```
	// Correct the arguments and call get_weather again.
}
