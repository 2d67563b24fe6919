package runtime

import (
	"bytes"
	"strconv"
)

// Defaults of the limits on an argument document, checked before it is decoded.
const (
	// DefaultMaxArgsBytes is the largest argument document of a tool without
	// //tool:maxargs: 1 MiB, far above what a model writes in one call, small enough that no
	// document makes decoding allocate much (see docs/limits.md).
	DefaultMaxArgsBytes = 1 << 20
	// DefaultMaxArgsDepth is the deepest nesting of arrays and objects in an argument
	// document. The JSON reader's own limit, 10,000, is an upper bound no setting can raise.
	DefaultMaxArgsDepth = 128
)

func (c *registryConfig) maxArgsOf(t *Tool) int64 {
	switch {
	case t.MaxArgs > 0:
		return t.MaxArgs
	case c.maxArgsBytes > 0:
		return c.maxArgsBytes
	}
	return DefaultMaxArgsBytes
}

// admitArgs refuses an argument document over the tool's size limit or nested deeper than
// the registry allows, before anything decodes it: what decoding may cost is then bounded by
// the limits, whatever the document.
func admitArgs(t *Tool, p *toolPolicies, args []byte) (refused *Result) {
	if limit := p.maxArgs; int64(len(args)) > limit {
		return failure(bindErrorResult(t.Name, &ArgsError{Problems: []Problem{{Message: "the arguments are " +
			strconv.Itoa(len(args)) + " bytes long, more than the " + strconv.FormatInt(limit, 10) +
			" bytes this tool accepts; send a shorter call"}}}))
	}
	depth := p.maxArgsDepth
	if nestsDeeper(args, depth) {
		return failure(bindErrorResult(t.Name, &ArgsError{Problems: []Problem{{Message: "the arguments nest arrays and objects more than " +
			strconv.Itoa(depth) + " levels deep; send a flatter document"}}}))
	}
	return nil
}

// nestsDeeper reports whether the JSON text doc opens more than max arrays and objects inside
// one another. Nesting that deep needs more than max opening brackets, which a vectorised count
// rules out for nearly every document; only the rest are scanned.
func nestsDeeper(doc []byte, max int) bool {
	if len(doc) <= max || bytes.Count(doc, []byte{'['})+bytes.Count(doc, []byte{'{'}) <= max {
		return false
	}
	depth, inString := 0, false
	for i := 0; i < len(doc); i++ {
		c := doc[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case '[', '{':
			if depth++; depth > max {
				return true
			}
		case ']', '}':
			depth--
		}
	}
	return false
}
