// Package xmlcall lets a model without a native tool API call tools by writing XML in its
// reply, and feeds the results back the same way.
//
// # The conversation
//
// Put Instructions in the system prompt: it tells the model how to write a call and lists
// each tool with its description, parameters (type, required, default) and example calls.
// A model then replies with prose and <tool_call> blocks, in either of two layouts, mixed as
// it likes:
//
//	Let me check.
//	<tool_call name="get_weather">
//	<parameter name="city">Tokyo</parameter>
//	<parameter name="days">3</parameter>
//	</tool_call>
//	<tool_call>
//	  <name>get_weather</name>
//	  <params>
//	    <city><![CDATA[Oslo]]></city>
//	  </params>
//	</tool_call>
//
// InstructionsMarkdown describes the tools in the second layout's style instead (### name,
// Description:, a Parameters: list and an example call with placeholder values).
//
// Hand the reply to Run, which parses it, converts each parameter, invokes the calls through
// a registry (or a disclosure.Disclosure) and returns a Turn; send Turn.Results back as the
// next user message. Through a registry, the calls of one reply run as native calls of one
// turn do (Registry.InvokeAll): concurrently, //tool:sequential tools alone.
//
//	turn := xmlcall.Run(ctx, reg, reply)
//	fmt.Println(turn.Text) // the prose, for the user
//	next := turn.Results() // <tool_result name="get_weather" id="call_1">{…}</tool_result>
//
// # Reading replies
//
// Parse accepts what models write: several calls in one reply, prose around and between
// them, values as raw text, entity-escaped text or CDATA, and attributes in either quote.
// What models get wrong is read leniently and said: a missing closing tag, a raw "&" or "<"
// in a value, parameters outside <params>, Markdown fences around calls, a call written as
// JSON inside <tool_call> ({"name": …, "arguments": {…}}, as Hermes and Qwen models write
// calls; its arguments go to the tool as they are, in Call.Args). Call.Recovered lists
// what was guessed, the result the model reads starts with it, and Result.Metadata holds it
// under MetadataRecovered; Options.Strict refuses instead. Each call keeps its text in
// Call.Raw. A block that cannot be read (a parameter without a name, stray text inside a
// call) is a *SyntaxError with its line and column and a message that says how to fix it;
// Run turns it into an error result for the model. Parse never panics, on any input.
//
// # Limits
//
// One reply holds at most DefaultMaxCalls calls, DefaultMaxParams parameters per call and
// DefaultMaxBytes bytes (Options changes them). Reading stops at the first call or
// parameter past a limit, so a hostile reply costs no more than the limits allow, and none
// of its calls runs: the model is told which limit it passed.
//
// # Repair
//
// Through a registry built WithRepair (runtime/repair), a misspelled tool name is resolved
// before the parameters are converted (getWeather → get_weather), and an array or object
// value that is not valid JSON (fenced, with trailing commas) goes to the registry as a
// string for it to repair and record, or refuse. The <tool_result> of a repaired call starts
// with what was repaired, so the model does not make the mistake again. A registry built
// WithArgsFeedback words the refusal of values that do not convert as it words its own
// (runtime/repair.Annotate: the arguments with each wrong value marked in place).
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
