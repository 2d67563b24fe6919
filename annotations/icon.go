package annotations

import (
	"path"
	"strconv"
	"strings"

	"github.com/toolgen-go/toolgen/internal/icon"
	"github.com/toolgen-go/toolgen/internal/suggest"
)

// Icon is the value of //tool:icon. A File icon names a file of the package, which the
// generator reads and embeds as a data: URI; otherwise Src is an https URL or a data: URI.
type Icon struct {
	Src      string
	File     bool
	MIMEType string   // mime=, else from the extension (or the data: URI); "" for a URL without one
	Sizes    []string // WIDTHxHEIGHT or any
	Theme    string   // light, dark or ""
	// SrcOffset is the byte offset of Src in the comment text, for errors found later
	// (a missing file, one over the size bound).
	SrcOffset int
}

// MaxIconBytes bounds the image of an icon: a file //tool:icon embeds, or a data: URI's.
const MaxIconBytes = icon.MaxBytes

// parseIcon reads //tool:icon PATH|URL [SIZE...] [theme=light|dark] [mime=TYPE].
func parseIcon(d *Directive, args string, at int) (any, []Problem) {
	ws := words(args, at)
	if len(ws) == 0 {
		return nil, []Problem{{Offset: at, Message: "missing icon file or URL", Hint: "write " + d.Usage()}}
	}
	ic := Icon{Src: ws[0].text, SrcOffset: ws[0].at}
	var problems []Problem
	for _, w := range ws[1:] {
		key, value, isSetting := strings.Cut(w.text, "=")
		switch {
		case !isSetting && icon.ValidSize(w.text):
			ic.Sizes = append(ic.Sizes, w.text)
		case !isSetting:
			problems = append(problems, Problem{Offset: w.at, Message: "invalid icon size " + strconv.Quote(w.text),
				Hint: "a size is WIDTHxHEIGHT in pixels (48x48) or any (a scalable image)"})
		case key == "theme" && icon.ValidTheme(value):
			ic.Theme = value
		case key == "theme":
			problems = append(problems, Problem{Offset: w.at + len("theme="), Message: "invalid icon theme " + strconv.Quote(value),
				Hint: "theme=light (drawn for a light background) or theme=dark"})
		case key == "mime" && icon.Known(value):
			ic.MIMEType = value
		case key == "mime":
			problems = append(problems, Problem{Offset: w.at + len("mime="), Message: "unknown icon type " + strconv.Quote(value),
				Hint: "one of " + icon.TypeNames})
		default:
			p := Problem{Offset: w.at, Message: "unexpected argument " + strconv.Quote(w.text), Hint: "write " + d.Usage()}
			if c := suggest.Closest(key, []string{"theme", "mime"}); c != "" {
				p.Hint = "did you mean " + c + "=?"
			}
			problems = append(problems, p)
		}
	}
	if p, ok := checkIconSrc(&ic); !ok {
		problems = append(problems, p)
	}
	if problems != nil {
		return nil, problems
	}
	return ic, nil
}

// checkIconSrc classifies and checks an icon's src: a URL (https, data:) or a file path of
// the package, relative, slash-separated and inside the package directory, as go:embed's.
func checkIconSrc(ic *Icon) (Problem, bool) {
	src := ic.Src
	scheme, _, hasScheme := strings.Cut(src, ":")
	if hasScheme && !strings.ContainsAny(scheme, "/.") && len(scheme) > 1 {
		mime, err := icon.CheckSrc(src)
		if err != nil {
			hint := "write an https URL, a data:TYPE;base64,DATA URI, or the path of an image file of the package"
			if strings.EqualFold(scheme, "http") {
				hint = "use https://: an icon URL a client fetches must be https"
			}
			return Problem{Offset: ic.SrcOffset, Message: "invalid icon " + strconv.Quote(cutForMessage(src)) + ": " + err.Error(), Hint: hint}, false
		}
		if ic.MIMEType == "" {
			ic.MIMEType = mime
		}
		return Problem{}, true
	}
	ic.File = true
	if path.IsAbs(src) || strings.Contains(src, `\`) || path.Clean(src) != src || src == ".." || strings.HasPrefix(src, "../") {
		return Problem{Offset: ic.SrcOffset, Message: "invalid icon file path " + strconv.Quote(src),
			Hint: "name a file in the package's directory or below it, relative and slash-separated (icons/close.svg)"}, false
	}
	if ic.MIMEType == "" {
		ic.MIMEType = icon.TypeOf(src)
	}
	if ic.MIMEType == "" {
		return Problem{Offset: ic.SrcOffset, Message: "unknown image type of icon file " + strconv.Quote(src),
			Hint: "an icon file is .png, .jpg, .svg, .webp or .gif; or say mime=TYPE"}, false
	}
	return Problem{}, true
}

// cutForMessage shortens a long src (a data: URI) for a message.
func cutForMessage(s string) string {
	if len(s) > 80 {
		return s[:77] + "..."
	}
	return s
}
