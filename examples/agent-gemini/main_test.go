package main

import (
	"bytes"
	"context"
	"strings"
	"testing"
)

func TestAgentAgainstFakeModel(t *testing.T) {
	t.Setenv("GEMINI_API_KEY", "")
	var out bytes.Buffer
	if err := run(context.Background(), &out); err != nil {
		t.Fatalf("%v\n%s", err, &out)
	}
	for _, want := range []string{
		`"city":"Tokyo","unit":"celsius"`,
		`/unit: must be one of "celsius", "fahrenheit", got "kelvin"`,
		"no weather station in Atlantis",
		"== answer\nTokyo is partly cloudy",
	} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, &out)
		}
	}
}
