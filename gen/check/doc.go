// Package check runs the generation-time checks that span a whole tool or the whole run,
// after the parser has checked each directive and tag on its own. Run records every finding
// in a diag.List; nothing stops at the first one.
//
// Errors (the run fails):
//   - a tool name that does not match ^[a-zA-Z_][a-zA-Z0-9_-]{0,127}$ (what every provider
//     accepts); the hint offers a valid spelling;
//   - the same tool name twice in one package (one generated Tools() catalog): reported at
//     every tool after the first in position order, with a hint naming the first. Two
//     packages may use one name; a registry given both refuses the second at run time;
//   - a tool without a description, or with one over 1024 characters (OpenAI's limit);
//   - a //tool:example whose JSON is malformed or does not validate against the tool's
//     input schema, listing each problem with its JSON Pointer;
//   - a //tool:related naming a tool that is not in the same package, with a "did you mean"
//     hint;
//   - contradictory hints: readonly with destructive;
//   - //tool:retry on a tool hinted destructive but not idempotent, since a retry could
//     repeat the damage;
//   - an input or output schema that toolgen itself rendered invalid (an internal error,
//     reported so that it is never shipped silently).
//
// Warnings (they fail the run only under -strict):
//   - a parameter (any property reachable from the args, nested ones included) without a
//     description, once per struct field even when several tools share the type;
//   - a tool description over 200 characters: the first paragraph is what every model reads
//     on every turn, and the rest belongs in the detail;
//   - a destructive tool without //tool:confirm.
//
// Schemas are compiled, and examples validated, with github.com/santhosh-tekuri/jsonschema/v6
// as an independent 2020-12 implementation: draft 2020-12 by default, formats asserted, and
// every schema checked against the 2020-12 meta-schema while compiling.
package check
