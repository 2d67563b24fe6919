// Package repair fixes the mistakes models make most in tool calls, where the tool's schema
// makes the intent unambiguous, and tells the model the rest in a form it can act on.
//
// # Repair
//
// Install a Repairer on the registry:
//
//	reg := runtime.NewRegistry(runtime.WithRepair(repair.New()))
//
// The registry then repairs a call only when the tool's decoder refused it, validates the
// repaired arguments in full, and records every repair (runtime.Repair: path, kind, before,
// after) in Result.Metadata[runtime.MetadataRepairs] and as an EventRepair to the observer.
// What is repaired, and what is not, is listed on Repairer.RepairArgs and RepairName. The
// rule throughout: a value is changed only into the one value the schema says it must have
// been, and a number's text passes unchanged, so the decoder decides as always whether it
// fits ("1.0" fits an integer, exactly; "2.5" does not). "01", "+1", " 3", "1,000" and "NaN"
// are not numbers here: such strings are often codes, not quantities. A misspelled key, a
// value of another type or an unknown enum value is never guessed: the model is told.
//
// testdata/corpus.jsonl holds 259 realistic bad calls, each labelled with what a careful
// repairer does with it; TestCorpus checks every label and fails when a call runs with a
// changed meaning.
//
// # Feedback
//
// Annotate, installed with runtime.WithArgsFeedback, shows the model its own arguments with
// every problem written next to the value it is about, and the schema of that value.
//
// # Sanitizing
//
// TrimStrings and StripControl are middleware that clean every string value of the arguments
// before they are validated (so minLength and patterns see the clean text); each change is
// recorded as a Sanitized repair. Sanitizers names them for //tool:filters; use
// runtime.WithMiddleware to apply them to every tool. MaxStringLength refuses any string
// argument longer than a registry-wide bound, whatever the tool's own maxLength says.
package repair
