// Package jsonpointer escapes and unescapes JSON Pointer tokens (RFC 6901) and reads the
// same-document references toolgen writes in schemas ("#" and "#/$defs/NAME"), which carry
// a JSON Pointer in URI-fragment form (RFC 6901 §6): escaped, then percent-encoded. Every part
// of toolgen that writes or follows such a pointer goes through here, so that they agree.
//
// It imports only the standard library, so runtime packages may use it.
package jsonpointer

import (
	"net/url"
	"strings"
)

// DefsPrefix begins the reference to a $defs entry.
const DefsPrefix = "#/$defs/"

// Escape escapes a property or definition name as a pointer token: "~" is written "~0" and
// "/" is written "~1". A name without either comes back as it is, without allocating.
//
// name does not escape to the heap: runtime/decode keeps the property names of its paths on
// the stack and writes them through here.
func Escape(name string) string {
	i := strings.IndexAny(name, "~/")
	if i < 0 {
		return name
	}
	b := make([]byte, 0, len(name)+4)
	b = append(b, name[:i]...)
	for ; i < len(name); i++ {
		switch c := name[i]; c {
		case '~':
			b = append(b, '~', '0')
		case '/':
			b = append(b, '~', '1')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// Unescape reverses Escape: "~1" is "/" and "~0" is "~", read left to right, so "~01" is
// "~1".
func Unescape(tok string) string {
	if strings.IndexByte(tok, '~') < 0 {
		return tok
	}
	return unescaper.Replace(tok)
}

var unescaper = strings.NewReplacer("~1", "/", "~0", "~")

// Tokens splits a JSON Pointer into its unescaped tokens: "" is the whole document (no
// tokens), "/a~1b/0" is ["a/b", "0"]. A pointer that does not start with "/" is read as if it
// did.
func Tokens(pointer string) []string {
	if pointer == "" {
		return nil
	}
	toks := strings.Split(strings.TrimPrefix(pointer, "/"), "/")
	for i, t := range toks {
		toks[i] = Unescape(t)
	}
	return toks
}

// fragmentSafe reports the bytes toolgen writes as they are in a URI fragment (RFC 3986:
// unreserved, sub-delims, ":", "@" and "/"); every other byte, such as those of non-ASCII
// letters, is percent-encoded.
func fragmentSafe(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		strings.IndexByte("-._~!$&'()*+,;=:@/", c) >= 0
}

// Fragment writes a JSON Pointer as a URI fragment, "#" included: bytes a fragment cannot
// hold are percent-encoded (RFC 6901 §6).
func Fragment(pointer string) string {
	const hex = "0123456789ABCDEF"
	b := make([]byte, 0, len(pointer)+1)
	b = append(b, '#')
	for i := 0; i < len(pointer); i++ {
		if c := pointer[i]; fragmentSafe(c) {
			b = append(b, c)
		} else {
			b = append(b, '%', hex[c>>4], hex[c&15])
		}
	}
	return string(b)
}

// DefRef is the reference to the $defs entry name: "#/$defs/" and the escaped,
// percent-encoded name (Größe → "#/$defs/Gr%C3%B6%C3%9Fe").
func DefRef(name string) string {
	return Fragment("/$defs/" + Escape(name))
}

// RefPointer returns the JSON Pointer a same-document reference holds: the fragment after
// "#", percent-decoded. ok is false for a reference to another document or a fragment that
// is not a pointer.
func RefPointer(ref string) (pointer string, ok bool) {
	frag, ok := strings.CutPrefix(ref, "#")
	if !ok {
		return "", false
	}
	if frag != "" && frag[0] != '/' {
		return "", false
	}
	p, err := url.PathUnescape(frag)
	if err != nil {
		return "", false
	}
	return p, true
}

// DefName returns the name of the $defs entry a reference points at: "#/$defs/NAME", the
// name percent-decoded and unescaped. ok is false for any other reference, "#" included.
func DefName(ref string) (name string, ok bool) {
	p, ok := RefPointer(ref)
	if !ok {
		return "", false
	}
	toks := Tokens(p)
	if len(toks) != 2 || toks[0] != "$defs" {
		return "", false
	}
	return toks[1], true
}
