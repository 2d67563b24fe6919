package annotations_test

import (
	"fmt"

	"github.com/toolgen-go/toolgen/annotations"
)

func ExampleParseComment() {
	parsed, problems := annotations.ParseComment("//tool:timeout 10s", annotations.OnFunc)
	fmt.Println(parsed.Directive.Name, parsed.Value.(annotations.Timeout).Duration, len(problems))

	// A typo gets a hint; the offset is a byte offset into the comment.
	_, problems = annotations.ParseComment("//tool:timout 10s", annotations.OnFunc)
	fmt.Printf("%d: %s (%s)\n", problems[0].Offset, problems[0].Message, problems[0].Hint)

	// Argument errors point at the argument.
	_, problems = annotations.ParseComment("//tool:timeout 10", annotations.OnFunc)
	fmt.Printf("%d: %s (%s)\n", problems[0].Offset, problems[0].Message, problems[0].Hint)
	// Output:
	// timeout 10s 0
	// 0: unknown directive //tool:timout (did you mean //tool:timeout?)
	// 15: timeout "10" is not a Go duration (did you mean 10s?)
}

func ExampleParseTag() {
	items, problems := annotations.ParseTag("minLength=1,pattern='^[a-z, ]+$',minlength=2")
	for _, it := range items {
		fmt.Printf("%s=%s at %d\n", it.Key.Name, it.Value, it.Offset)
	}
	for _, p := range problems {
		fmt.Printf("%d: %s (%s)\n", p.Offset, p.Message, p.Hint)
	}
	// Output:
	// minLength=1 at 0
	// pattern=^[a-z, ]+$ at 12
	// 33: unknown tag key "minlength" (did you mean minLength?)
}
