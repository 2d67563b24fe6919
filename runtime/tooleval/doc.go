// Package tooleval checks how well a model picks a registry's tools: given user requests
// and the call each should produce, it asks a model behind an OpenAI-compatible Chat
// Completions endpoint, once per request, and reports per tool how often the right tool was
// chosen, with arguments the tool accepts and, where the case gives them, the expected ones;
// which tools were taken for which; and which requests got no call. Without a model,
// SimilarDescriptions lists the pairs of tools whose names and descriptions are too close for
// a model to tell apart.
//
// A case file is JSON: an array of cases, or one case per line.
//
//	{"request": "What's the weather in Oslo?", "tool": "get_weather", "args": {"city": "Oslo"}}
//	{"request": "Book a table for two", "tool": "book_table"}
//
// Run it from a test or a small program of yours, with your registry:
//
//	cases, err := tooleval.LoadCases(file)
//	report, err := tooleval.Run(ctx, reg, cases, tooleval.Model{
//		BaseURL: "https://api.openai.com/v1", APIKey: os.Getenv("OPENAI_API_KEY"), Name: "gpt-5-mini"})
//	fmt.Print(report.Table())  // or json.Marshal(report)
//
// Arguments are judged as the registry would judge them, without running anything: each
// call is restored from the OpenAI variant (strict mode's nulls) and bound with
// Tool.BindArgs. Expected arguments match when each member the case names has the same JSON
// value in the call (members the case leaves out are not compared). The model's answers are
// untrusted: a response is read up to MaxResponseBytes, and a case's request ends after
// Model.Timeout.
package tooleval
