package main

import (
	"context"
	"strings"
	"testing"
)

// TestConversation checks the parts of the scripted conversation a reader of the example
// relies on: the model learns get_weather's parameters, its bad value is reported by name,
// and the corrected call succeeds.
func TestConversation(t *testing.T) {
	var out strings.Builder
	if err := run(context.Background(), &out); err != nil {
		t.Fatal(err)
	}
	text := out.String()
	for _, want := range []string{
		"- get_weather: Gets the current weather for a city.",
		`<tool name="get_tool_info">`,
		"- days (integer, optional, default 0): Days of forecast to include.",
		`<tool_result name="get_weather" id="call_1">` + "\n" + `{"city":"Tokyo"`,
		`<tool_result name="get_weather" id="call_2" error="true">` + "\n" + `invalid arguments for get_weather: /days: must be an integer, got "two"`,
		`"forecast":[{"day":1,`,
		"read leniently: the closing &lt;/days> of \"days\" was missing",
		"repaired before it ran: the tool is called get_weather, not getWeather.",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("the conversation lacks %q:\n%s", want, text)
		}
	}
}
