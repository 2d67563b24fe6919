package xmlcall_test

import (
	"context"
	"fmt"
	"log"

	"github.com/toolgen-go/toolgen/examples/weather/weather"
	"github.com/toolgen-go/toolgen/runtime"
	"github.com/toolgen-go/toolgen/runtime/xmlcall"
)

func ExampleInstructions() {
	fmt.Print(xmlcall.Instructions(weather.Tools()))
	// Output:
	// To use a tool, write a tool call in your reply, in this form:
	//
	// <tool_call name="TOOL_NAME">
	// <parameter name="PARAMETER_NAME">VALUE</parameter>
	// </tool_call>
	//
	// Rules:
	// - Write one <parameter> element per argument. Leave out optional parameters you do not need.
	// - Write strings as plain text, numbers as digits, booleans as true or false, null as null, and arrays and objects as JSON.
	// - In a value, write &lt; for < and &amp; for &, or wrap the value in <![CDATA[ and ]]> to keep it exactly as written.
	// - You may write several tool calls in one reply. Then stop: the results come back in <tool_result> elements, one per call.
	//
	// Tools:
	//
	// <tool name="get_weather">
	// <description>Gets the current weather for a city. Returns temperature and conditions.</description>
	// <detail>Use it when the user asks about the weather, temperature or forecast of a named city.</detail>
	// <parameter name="city" type="string" required="true">City name, e.g. Beijing, Tokyo.</parameter>
	// <parameter name="unit" type="string" required="false" default="celsius">Temperature unit. Values: "celsius" (degrees Celsius), "fahrenheit" (degrees Fahrenheit).</parameter>
	// <parameter name="days" type="integer" required="false" default="0">Days of forecast to include.</parameter>
	// <example scenario="Weather in Tokyo" expected="Current weather for Tokyo in celsius">
	// <tool_call name="get_weather">
	// <parameter name="city">Tokyo</parameter>
	// </tool_call>
	// </example>
	// </tool>
}

func ExampleRun() {
	reg := runtime.NewRegistry()
	if err := reg.Add(weather.Tools()...); err != nil {
		log.Fatal(err)
	}
	reply := `I'll look that up.
<tool_call name="get_weather">
<parameter name="city">Tokyo</parameter>
<parameter name="days">2</parameter>
</tool_call>
<tool_call name="get_weather">
<parameter name="days">three</parameter>
</tool_call>`
	turn := xmlcall.Run(context.Background(), reg, reply)
	fmt.Println(turn.Text)
	fmt.Println(turn.Results())
	// Output:
	// I'll look that up.
	// <tool_result name="get_weather" id="call_1">
	// {"city":"Tokyo","unit":"celsius","temperature":17,"conditions":"partly cloudy","forecast":[{"day":1,"high":18,"low":14},{"day":2,"high":19,"low":15}]}
	// </tool_result>
	// <tool_result name="get_weather" id="call_2" error="true">
	// invalid arguments for get_weather:
	// - /days: must be an integer, got "three"
	// - /city: required property is missing
	// Correct the arguments and call get_weather again.
	// </tool_result>
}

func ExampleParse() {
	reply := `Sure.
<tool_call name="run_sql" id="q1">
<parameter name="query"><![CDATA[SELECT * FROM t WHERE a < 3 AND b > 1]]></parameter>
<parameter name="note">a &lt; b &amp;&amp; c</parameter>
<parameter name="raw">x < y</parameter>
</tool_call>
Done.`
	r, err := xmlcall.Parse(reply)
	if err != nil {
		log.Fatal(err)
	}
	for _, c := range r.Calls {
		fmt.Println(c.ID, c.Name)
		for _, p := range c.Params {
			fmt.Printf("  %s = %q\n", p.Name, p.Value)
		}
	}
	fmt.Printf("%q\n", r.Text)

	// The seed's layout, fenced, with a closing tag missing: read leniently, and said so.
	sloppy := "```xml\n<tool_call>\n  <name>get_weather</name>\n  <params>\n    <city>Tokyo\n  </params>\n</tool_call>\n```"
	r, err = xmlcall.Parse(sloppy)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%s %q %q\n", r.Calls[0].Name, r.Calls[0].Params, r.Text)
	for _, note := range r.Calls[0].Recovered {
		fmt.Println("  recovered:", note)
	}
	_, err = xmlcall.Options{Strict: true}.Parse(sloppy)
	fmt.Println(err)
	// Output:
	// q1 run_sql
	//   query = "SELECT * FROM t WHERE a < 3 AND b > 1"
	//   note = "a < b && c"
	//   raw = "x < y"
	// "Sure.\n\nDone."
	// get_weather [{"city" "Tokyo"}] ""
	//   recovered: the closing </city> of "city" was missing
	//   recovered: the call was wrapped in a Markdown code fence; write tool calls without one
	// line 5, column 5: <city> is not closed; end its value with </city>
}

func ExampleInstructionsMarkdown() {
	fmt.Print(xmlcall.InstructionsMarkdown(weather.Tools()))
	// Output:
	// To use a tool, write a tool call in your reply, in this form:
	//
	// <tool_call>
	//   <name>TOOL_NAME</name>
	//   <params>
	//     <PARAMETER_NAME><![CDATA[VALUE]]></PARAMETER_NAME>
	//   </params>
	// </tool_call>
	//
	// ## Tools
	//
	// ### get_weather
	// Description: Gets the current weather for a city. Returns temperature and conditions.
	// Use it when the user asks about the weather, temperature or forecast of a named city.
	// Parameters:
	// - city: string (required) - City name, e.g. Beijing, Tokyo.
	// - unit: string (optional) - Temperature unit. Values: "celsius" (degrees Celsius), "fahrenheit" (degrees Fahrenheit).
	//   Default: celsius
	// - days: integer (optional) - Days of forecast to include.
	//   Default: 0
	// Example:
	// <tool_call>
	//   <name>get_weather</name>
	//   <params>
	//     <city><![CDATA[CITY]]></city>
	//     <unit><![CDATA[celsius]]></unit>
	//     <days><![CDATA[0]]></days>
	//   </params>
	// </tool_call>
	// Example (Weather in Tokyo):
	// <tool_call>
	//   <name>get_weather</name>
	//   <params>
	//     <city><![CDATA[Tokyo]]></city>
	//   </params>
	// </tool_call>
	// Expected: Current weather for Tokyo in celsius
	//
	// ## Notes
	//
	// - Wrap each value in <![CDATA[ and ]]> so it is kept exactly as written, markup included.
	// - Write strings as plain text, numbers as digits, booleans as true or false, null as null, and arrays and objects as JSON.
	// - Leave out optional parameters you do not need: their default applies.
	// - Write the call without a Markdown code fence around it.
	// - You may write several tool calls in one reply; they may run at the same time. Then stop: the results come back in <tool_result> elements, one per call, in order.
}
