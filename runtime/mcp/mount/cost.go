package mount

import (
	"errors"
	"fmt"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// The general validator does not memoize: a subschema reached by several $refs is validated
// again each time, so a schema of a few KB (each $defs entry an allOf of two $refs to the one
// before) costs 2^n validations of one value, and the validator cannot be interrupted. Both
// sides are bounded here:
//
//   - at mount time, the schema unfolded (each $ref, $dynamicRef and $recursiveRef expanded
//     where it is used, without memoization; a reference back to a subschema being unfolded,
//     a recursive schema, is not expanded again) holds at most MaxSchemaExpansion
//     subschemas, or the tool is left out;
//   - before each validation, the steps the validator would take on that document (each
//     subschema applied to a value, as it applies them, without memoization; each member or
//     item gone over for it; each enum value compared) are counted, up to
//     MaxValidationSteps plus ValidationStepsPerValue for each JSON value of the document;
//     a document past it is refused unvalidated, after at most that many steps of
//     counting. This bounds a recursive schema too, whose applications grow with the
//     document's depth (an allOf of two properties recursing on the same name doubles them
//     at each level).
const (
	MaxSchemaExpansion      = 10_000
	MaxValidationSteps      = 1 << 20
	ValidationStepsPerValue = 16
)

// errExpansion is the reason a schema is refused at mount time.
var errExpansion = fmt.Errorf("its subschemas, each $ref unfolded where it is used, number over %d: validating with it could take unbounded time", MaxSchemaExpansion)

// anchors are the targets a $dynamicRef or $recursiveRef may resolve to besides its own,
// which depend on the dynamic scope: all of them are counted.
type anchors struct {
	dynamic   map[string][]*jsonschema.Schema // by $dynamicAnchor
	recursive []*jsonschema.Schema            // with $recursiveAnchor true
}

// collectAnchors finds the dynamic and recursive anchors of the schemas reachable from s.
func collectAnchors(s *jsonschema.Schema) *anchors {
	a := &anchors{dynamic: map[string][]*jsonschema.Schema{}}
	seen := map[*jsonschema.Schema]bool{}
	var walk func(*jsonschema.Schema)
	walk = func(s *jsonschema.Schema) {
		if s == nil || seen[s] {
			return
		}
		seen[s] = true
		if s.DynamicAnchor != "" {
			a.dynamic[s.DynamicAnchor] = append(a.dynamic[s.DynamicAnchor], s)
		}
		if s.RecursiveAnchor {
			a.recursive = append(a.recursive, s)
		}
		a.inPlace(s, func(c *jsonschema.Schema) bool { walk(c); return true })
		descending(s, func(c *jsonschema.Schema) bool { walk(c); return true })
	}
	walk(s)
	return a
}

// inPlace calls fn with each subschema s applies to the value s is applied to (references
// included, with every target they may resolve to), until fn returns false.
func (a *anchors) inPlace(s *jsonschema.Schema, fn func(*jsonschema.Schema) bool) bool {
	each := func(list ...*jsonschema.Schema) bool {
		for _, c := range list {
			if c != nil && !fn(c) {
				return false
			}
		}
		return true
	}
	if !each(s.Ref, s.Not, s.If, s.Then, s.Else) || !each(s.AllOf...) || !each(s.AnyOf...) || !each(s.OneOf...) {
		return false
	}
	if s.RecursiveRef != nil && (!each(s.RecursiveRef) || s.RecursiveRef.RecursiveAnchor && !each(a.recursive...)) {
		return false
	}
	if d := s.DynamicRef; d != nil && (!each(d.Ref) || d.Anchor != "" && !each(a.dynamic[d.Anchor]...)) {
		return false
	}
	for _, c := range s.DependentSchemas {
		if !each(c) {
			return false
		}
	}
	for _, dep := range s.Dependencies {
		if c, ok := dep.(*jsonschema.Schema); ok && !each(c) {
			return false
		}
	}
	return true
}

// descending calls fn with each subschema s applies to a member, an item or a property
// name of the value, until fn returns false.
func descending(s *jsonschema.Schema, fn func(*jsonschema.Schema) bool) bool {
	list := []*jsonschema.Schema{s.PropertyNames, s.UnevaluatedProperties, s.Contains, s.Items2020, s.UnevaluatedItems}
	if c, ok := s.AdditionalProperties.(*jsonschema.Schema); ok {
		list = append(list, c)
	}
	if c, ok := s.AdditionalItems.(*jsonschema.Schema); ok {
		list = append(list, c)
	}
	switch items := s.Items.(type) {
	case *jsonschema.Schema:
		list = append(list, items)
	case []*jsonschema.Schema:
		list = append(list, items...)
	}
	list = append(list, s.PrefixItems...)
	for _, c := range s.Properties {
		list = append(list, c)
	}
	for _, c := range s.PatternProperties {
		list = append(list, c)
	}
	for _, c := range list {
		if c != nil && !fn(c) {
			return false
		}
	}
	return true
}

// checkExpansion reports errExpansion when s, unfolded, holds more than MaxSchemaExpansion
// subschemas. It stops at the bound, so it costs at most that many steps.
func checkExpansion(s *jsonschema.Schema, a *anchors) error {
	n := 0
	onPath := map[*jsonschema.Schema]bool{}
	var unfold func(*jsonschema.Schema) bool
	unfold = func(s *jsonschema.Schema) bool {
		if n++; n > MaxSchemaExpansion {
			return false
		}
		if onPath[s] {
			return true // recursion: bounded by the document's depth, counted when validating
		}
		onPath[s] = true
		defer delete(onPath, s)
		return a.inPlace(s, unfold) && descending(s, unfold)
	}
	if !unfold(s) {
		return errExpansion
	}
	return nil
}

// errTooCostly is a document whose validation is past its bound.
var errTooCostly = errors.New("too costly to validate")

// validationCost counts the steps validating a value takes, as the validator takes them
// (more, where it cannot tell which apply), up to budget.
type validationCost struct {
	anchors *anchors
	steps   int64
	budget  int64
	nextID  int                  // of the values being validated, as the validator tells them apart
	active  map[applied]struct{} // the applications in progress: one repeated is a cycle
}

type applied struct {
	s  *jsonschema.Schema
	id int
}

// checkCost returns errTooCostly when validating v with s would take more than
// MaxValidationSteps + ValidationStepsPerValue × (v's values) steps.
func checkCost(s *jsonschema.Schema, a *anchors, v any) error {
	c := &validationCost{anchors: a, budget: MaxValidationSteps + ValidationStepsPerValue*countValues(v), active: map[applied]struct{}{}}
	if !c.apply(s, v, 0) {
		return errTooCostly
	}
	return nil
}

// countValues counts the JSON values of v, itself included.
func countValues(v any) int64 {
	n := int64(1)
	switch v := v.(type) {
	case map[string]any:
		for _, m := range v {
			n += countValues(m)
		}
	case []any:
		for _, m := range v {
			n += countValues(m)
		}
	}
	return n
}

// apply counts s applied to v (whose id is id), and reports false past the budget.
func (c *validationCost) apply(s *jsonschema.Schema, v any, id int) bool {
	if !c.spend(1) {
		return false
	}
	if s.Bool != nil {
		return true
	}
	key := applied{s, id}
	if _, cycle := c.active[key]; cycle {
		return true // the validator stops here with an error
	}
	c.active[key] = struct{}{}
	defer delete(c.active, key)
	if s.Enum != nil && !c.spend(len(s.Enum.Values)) {
		return false
	}
	if !c.anchors.inPlace(s, func(sub *jsonschema.Schema) bool { return c.apply(sub, v, id) }) {
		return false
	}
	switch v := v.(type) {
	case map[string]any:
		return c.object(s, v)
	case []any:
		return c.array(s, v)
	}
	return true
}

// spend counts n steps of work besides applications (the validator's loops over a value's
// members, items and enum values), and reports false past the budget.
func (c *validationCost) spend(n int) bool {
	c.steps += int64(n)
	return c.steps <= c.budget
}

// child counts sub applied to a member, item or name of the value being validated.
func (c *validationCost) child(sub *jsonschema.Schema, v any) bool {
	if sub == nil {
		return true
	}
	c.nextID++
	return c.apply(sub, v, c.nextID)
}

func (c *validationCost) object(s *jsonschema.Schema, obj map[string]any) bool {
	// The validator goes over the members for every schema applied to an object.
	if !c.spend(len(obj) * (1 + len(s.PatternProperties))) {
		return false
	}
	additional, _ := s.AdditionalProperties.(*jsonschema.Schema)
	for name, m := range obj {
		matched := false
		if sub, ok := s.Properties[name]; ok {
			matched = true
			if !c.child(sub, m) {
				return false
			}
		}
		for re, sub := range s.PatternProperties {
			if re.MatchString(name) {
				matched = true
				if !c.child(sub, m) {
					return false
				}
			}
		}
		if !matched && !c.child(additional, m) {
			return false
		}
		// Every member counted as unevaluated: more than the validator applies, never less.
		if !c.child(s.UnevaluatedProperties, m) || !c.child(s.PropertyNames, name) {
			return false
		}
	}
	return true
}

func (c *validationCost) array(s *jsonschema.Schema, arr []any) bool {
	// The validator goes over the items once for each keyword that applies to them, and
	// hashes them for uniqueItems.
	if !c.spend(len(arr) * (1 + boolInt(s.UniqueItems))) {
		return false
	}
	additional, _ := s.AdditionalItems.(*jsonschema.Schema)
	for i, item := range arr {
		var subs []*jsonschema.Schema
		switch items := s.Items.(type) {
		case *jsonschema.Schema:
			subs = append(subs, items)
		case []*jsonschema.Schema:
			if i < len(items) {
				subs = append(subs, items[i])
			} else {
				subs = append(subs, additional)
			}
		}
		if i < len(s.PrefixItems) {
			subs = append(subs, s.PrefixItems[i])
		} else {
			subs = append(subs, s.Items2020)
		}
		subs = append(subs, s.Contains, s.UnevaluatedItems)
		for _, sub := range subs {
			if !c.child(sub, item) {
				return false
			}
		}
	}
	return true
}
