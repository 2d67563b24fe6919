// Package parttext writes, for the provider adapters, the text that stands for a result part
// (runtime.Part) where a provider takes only text: a resource link, an embedded text resource,
// or a note that something was left out, so the model knows it exists.
package parttext

import (
	"cmp"
	"encoding/base64"
	"fmt"
	"strings"

	"github.com/toolgen-go/toolgen/internal/plural"
	"github.com/toolgen-go/toolgen/runtime"
)

// Link describes a resource link: "Resource: NAME <URI> (MIME, SIZE bytes) — DESCRIPTION".
func Link(p runtime.Part) string {
	var b strings.Builder
	b.WriteString("Resource: ")
	if name := cmp.Or(p.Title, p.Name); name != "" {
		b.WriteString(name + " ")
	}
	fmt.Fprintf(&b, "<%s>", p.URI)
	var facts []string
	if p.MIMEType != "" {
		facts = append(facts, p.MIMEType)
	}
	if p.Size > 0 {
		facts = append(facts, plural.Of(p.Size, "byte"))
	}
	if len(facts) > 0 {
		fmt.Fprintf(&b, " (%s)", strings.Join(facts, ", "))
	}
	if p.Description != "" {
		b.WriteString(" — " + p.Description)
	}
	return b.String()
}

// Resource returns an embedded text resource as text: its URI, then its content.
func Resource(p runtime.Part) string {
	return fmt.Sprintf("Resource <%s> (%s):\n%s", p.URI, cmp.Or(p.MIMEType, "text/plain"), p.Text)
}

// LeftOut says that a part was not sent and why.
func LeftOut(p runtime.Part, why string) string {
	what := string(p.Kind)
	if p.Kind == runtime.PartResource {
		what = "embedded resource <" + p.URI + ">"
	}
	if p.MIMEType != "" {
		what += " (" + p.MIMEType + ")"
	}
	if n := max(len(p.Data), len(p.Text)); n > 0 {
		what += ", " + plural.Of(n, "byte") + ","
	}
	return fmt.Sprintf("[The tool also returned %s not shown here: %s.]", what, why)
}

// AsText returns the text standing for p in a provider that takes text only.
func AsText(p runtime.Part, provider string) string {
	switch {
	case p.Kind == runtime.PartResourceLink:
		return Link(p)
	case p.Kind == runtime.PartResource && p.Data == nil:
		return Resource(p)
	}
	return LeftOut(p, provider+" tool results carry text only")
}

// Content is what a model reads for res where a tool result has no error flag (OpenAI, the
// agent frameworks): an error says so in its first word. An effect-only result reads as
// empty: the effects are the host's, but the call must still be answered.
func Content(res runtime.Result) string {
	if res.EffectOnly() {
		return ""
	}
	if res.IsError && !strings.HasPrefix(res.Text, "Error") {
		return "Error: " + res.Text
	}
	return res.Text
}

// TextOnly is Content followed by res's parts as text (AsText), one paragraph each, for
// where (a provider or framework) whose tool results carry text only.
func TextOnly(res runtime.Result, where string) string {
	text := Content(res)
	if len(res.Parts) == 0 {
		return text
	}
	lines := make([]string, 0, len(res.Parts)+1)
	if text != "" {
		lines = append(lines, text)
	}
	for _, p := range res.Parts {
		lines = append(lines, AsText(p, where))
	}
	return strings.Join(lines, "\n\n")
}

// WebImages are the image types both OpenAI and Anthropic read: JPEG, PNG, GIF and WebP.
var WebImages = map[string]bool{"image/jpeg": true, "image/png": true, "image/gif": true, "image/webp": true}

// Base64 encodes data for JSON APIs that take base64 strings.
func Base64(data []byte) string { return base64.StdEncoding.EncodeToString(data) }

// DataURL returns data as a data: URL.
func DataURL(mime string, data []byte) string { return "data:" + mime + ";base64," + Base64(data) }

// Binary returns the bytes and MIME type of a part carrying binary data (image, audio, an
// embedded binary resource), or false.
func Binary(p runtime.Part) ([]byte, string, bool) {
	switch p.Kind {
	case runtime.PartImage, runtime.PartAudio:
		return p.Data, p.MIMEType, true
	case runtime.PartResource:
		if p.Text == "" && p.Data != nil {
			return p.Data, p.MIMEType, true
		}
	}
	return nil, "", false
}
