package parse

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/toolgen-go/toolgen/annotations"
	"github.com/toolgen-go/toolgen/gen/model"
	"github.com/toolgen-go/toolgen/internal/icon"
)

// icon resolves a //tool:icon: a file is read, relative to the directive's source file,
// checked (a regular file, at most annotations.MaxIconBytes, its content of its type) and
// embedded as a data: URI. Problems are errors at the file name. Messages name the file as
// the directive wrote it, never the path on this machine.
func (p *parser) icon(d directive, ic annotations.Icon) (model.Icon, bool) {
	out := model.Icon{Src: ic.Src, MIMEType: ic.MIMEType, Sizes: ic.Sizes, Theme: ic.Theme}
	if !ic.File {
		return out, true
	}
	pos := d.at(ic.SrcOffset)
	file := filepath.Join(filepath.Dir(d.pos.Filename), filepath.FromSlash(ic.Src))
	data, err := readIcon(file)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		p.diags.Errorf(pos, "icon file %s does not exist", ic.Src).
			WithHint("the path is relative to the directory of this source file")
		return out, false
	case errors.Is(err, errTooLarge):
		p.diags.Errorf(pos, "icon file %s is over %d bytes (64 KiB)", ic.Src, annotations.MaxIconBytes).
			WithHint("make the image smaller, or serve it and write its https URL")
		return out, false
	case errors.Is(err, errNotRegular):
		p.diags.Errorf(pos, "icon %s is not a regular file", ic.Src)
		return out, false
	case err != nil:
		p.diags.Errorf(pos, "icon file %s cannot be read", ic.Src)
		return out, false
	}
	if got := icon.Sniff(data); got != ic.MIMEType {
		found := "no image type toolgen knows"
		if got != "" {
			found = got
		}
		p.diags.Errorf(pos, "icon file %s is not of type %s: its content is %s", ic.Src, ic.MIMEType, found).
			WithHint("an icon is one of %s; fix the extension or mime=", icon.TypeNames)
		return out, false
	}
	out.Src = icon.DataURI(ic.MIMEType, data)
	return out, true
}

var (
	errTooLarge   = errors.New("too large")
	errNotRegular = errors.New("not a regular file")
)

// readIcon reads file, reading no more than one byte past the bound.
func readIcon(file string) ([]byte, error) {
	f, err := os.Open(file)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err := f.Stat(); err != nil {
		return nil, err
	} else if !st.Mode().IsRegular() {
		return nil, errNotRegular
	}
	data, err := io.ReadAll(io.LimitReader(f, annotations.MaxIconBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > annotations.MaxIconBytes {
		return nil, errTooLarge
	}
	return data, nil
}
