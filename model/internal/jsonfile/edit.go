package jsonfile

import (
	"bytes"
	"io/fs"
	"os"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// Edit is the one read-modify-write path for configuration files: find
// the real file behind any symlinks (refusing a project file that leads out
// of rules.within, see writeTarget), lock it, clear temporary files an
// interrupted write left, read, refuse a broken file (it is left exactly as
// it is), let edit compute the new bytes, and replace the real file
// atomically when they differ, so a symlink stays a symlink. A missing file
// starts as {} and is created with rules.newMode.
func Edit(path string, rules WriteRules, edit func(f *File) ([]byte, error)) error {
	target, err := writeTarget(path, rules)
	if err != nil {
		return err
	}
	if st, err := os.Stat(target); err == nil {
		if p := notRegularProblem(path, st.Mode()); p != nil {
			return Unusable("%s", p.Error())
		}
	}
	unlock, err := platform.Lock(target)
	if err != nil {
		return err
	}
	defer unlock()
	platform.RemoveStaleTemps(target, time.Now())
	f, prob := Read(target)
	if prob != nil {
		prob.File = path
		return Unusable("%s", prob.Error())
	}
	isNew := f == nil
	if isNew {
		f = &File{Path: path, Doc: []byte("{}\n")}
		f.Root, _ = jsondoc.Parse(f.Doc)
	}
	f.Path = path // problems name the file the person knows
	out, err := edit(f)
	if err != nil {
		return err
	}
	if !isNew && bytes.Equal(out, f.Doc) {
		return nil
	}
	if f.BOM {
		out = append(append([]byte(nil), utf8BOM...), out...)
	}
	if rules.Backup && !isNew {
		if err := keepBackup(target); err != nil {
			return err // nothing rewritten without the copy asked for
		}
	}
	return writeFile(target, out, rules)
}

// NewFileMode is the mode of a configuration file mcpdeck creates: the
// project file is shared (0644); user and local settings are private (0600)
// because env values and headers may hold secrets.
func NewFileMode(s model.Scope) fs.FileMode {
	if s == model.ScopeProject {
		return 0o644
	}
	return 0o600
}
