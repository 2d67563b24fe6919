// Package xmlcall lets a model without a native tool API call tools by writing XML in its
// reply, and feeds the results back the same way.
//
// # The conversation
//
// Put Instructions in the system prompt: it tells the model how to write a call and lists
// each tool with its description, parameters (type, required, default) and example calls.
// A model then replies with prose and <tool_call> blocks:
//
//	Let me check.
//	<tool_call name="get_weather">
//	<parameter name="city">Tokyo</parameter>
//	<parameter name="days">3</parameter>
//	</tool_call>
//
// Hand the reply to Run, which parses it, converts each parameter, invokes the calls through
// a registry (or a disclosure.Disclosure) and returns a Turn; send Turn.Results back as the
// next user message:
//
//	turn := xmlcall.Run(ctx, reg, reply)
//	fmt.Println(turn.Text) // the prose, for the user
//	next := turn.Results() // <tool_result name="get_weather" id="call_1">{…}</tool_result>
//
// # Reading replies
//
// Parse accepts what models write: several calls in one reply, prose around and between
// them, values as raw text, entity-escaped text or CDATA, and attributes in either quote.
// A malformed block (an unclosed element, a parameter without a name, stray text inside a
// call) is a *SyntaxError with its line and column and a message that says how to fix it;
// Run turns it into an error result for the model. Parse never panics, on any input.
//
// # Types come from the schema
//
// Everything in XML is text, so each value is converted by the JSON type the tool's input
// schema gives its parameter ($ref, anyOf and nullable type arrays followed), not by how it
// looks: "3" is the integer 3 for an integer parameter and the string "3" for a string one;
// arrays and objects are written as JSON. The JSON arguments then go through the tool's
// generated decoder like any native call, so every constraint of the schema applies, and a
// value that does not convert is reported with the parameter's path, next to every other
// problem of the call.
package xmlcall
