package jsonfile

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// MaxConfigSize bounds every configuration file we read: a 10 MB settings file
// is a mistake or an attack, and reading it must not exhaust memory.
const MaxConfigSize = 10 << 20

var utf8BOM = []byte{0xEF, 0xBB, 0xBF}

// File is a parsed configuration file: its bytes (BOM removed) and tree.
type File struct {
	Path string
	Doc  []byte
	Root *jsondoc.Node
	BOM  bool // the file began with a UTF-8 byte order mark (kept on rewrite)
}

// Read reads and parses path. A missing file returns (nil, nil). Any
// other failure is a Problem naming the file (and line/column for syntax
// errors); the file itself is never modified. An empty file counts as {}.
// Only a regular file is read (see openRegular).
func Read(path string) (*File, *model.Problem) {
	f, prob := openRegular(path)
	if f == nil {
		return nil, prob
	}
	defer f.Close()
	doc, err := io.ReadAll(io.LimitReader(f, MaxConfigSize+1))
	if err != nil {
		return nil, &model.Problem{File: path, Message: "cannot read the file: " + describeIOError(err)}
	}
	if len(doc) > MaxConfigSize {
		return nil, &model.Problem{File: path, Message: fmt.Sprintf("the file is larger than %d MB; refusing to read it", MaxConfigSize>>20)}
	}
	jf, prob := Parse(path, doc)
	if jf != nil {
		jf.BOM = bytes.HasPrefix(doc, utf8BOM)
	}
	return jf, prob
}

// openRegular opens path for reading if it is a regular file (after
// symlinks). A missing file is (nil, nil). A directory, named pipe, socket or
// device is a Problem saying so, and is never read: reading a pipe or a
// terminal (.mcp.json linked to /dev/tty) would wait forever for input. The
// type is checked before opening, then again on the opened file, which
// openNonBlocking opened without waiting for a pipe's writer, so a file
// swapped in between is caught too.
func openRegular(path string) (*os.File, *model.Problem) {
	st, err := os.Stat(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &model.Problem{File: path, Message: "cannot read the file: " + describeIOError(err)}
	}
	if p := notRegularProblem(path, st.Mode()); p != nil {
		return nil, p
	}
	f, err := openNonBlocking(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, &model.Problem{File: path, Message: "cannot read the file: " + describeIOError(err)}
	}
	if st, err = f.Stat(); err != nil {
		f.Close()
		return nil, &model.Problem{File: path, Message: "cannot read the file: " + describeIOError(err)}
	}
	if p := notRegularProblem(path, st.Mode()); p != nil {
		f.Close()
		return nil, p
	}
	return f, nil
}

// notRegularProblem names what path is when it is not a regular file, and
// where it leads when it is a symlink; nil for a regular file.
func notRegularProblem(path string, m fs.FileMode) *model.Problem {
	var what string
	switch {
	case m.IsRegular():
		return nil
	case m.IsDir():
		what = "a directory"
	case m&fs.ModeNamedPipe != 0:
		what = "a named pipe"
	case m&fs.ModeSocket != 0:
		what = "a socket"
	case m&fs.ModeDevice != 0:
		what = "a device"
	default:
		what = "not a regular file"
	}
	msg := "it is " + what
	if lst, err := os.Lstat(path); err == nil && lst.Mode()&fs.ModeSymlink != 0 {
		if dest, err := filepath.EvalSymlinks(path); err == nil {
			msg = "it is a symlink to " + dest + ", which is " + what
		}
	}
	if what != "not a regular file" {
		msg += ", not a file"
	}
	return &model.Problem{File: path, Message: "cannot read the file: " + msg}
}

// Parse parses doc (a file's bytes or inline JSON) that must hold an
// object at the top level.
func Parse(path string, doc []byte) (*File, *model.Problem) {
	doc = bytes.TrimPrefix(doc, utf8BOM)
	if len(bytes.TrimSpace(doc)) == 0 {
		doc = []byte("{}")
	}
	root, err := jsondoc.Parse(doc)
	if err != nil {
		var se *jsondoc.SyntaxError
		if errors.As(err, &se) {
			line, col := jsondoc.LineCol(doc, se.Offset)
			return nil, &model.Problem{File: path, Line: line, Col: col, Message: "invalid JSON: " + se.Msg}
		}
		return nil, &model.Problem{File: path, Message: "invalid JSON: " + err.Error()}
	}
	if root.Kind != '{' {
		line, col := jsondoc.LineCol(doc, root.Start)
		return nil, &model.Problem{File: path, Line: line, Col: col, Message: "the top level must be a JSON object, got " + jsondoc.KindName(root.Kind)}
	}
	if len(root.Dups) > 0 {
		d := root.Dups[0]
		line, col := jsondoc.LineCol(doc, d.KeyStart)
		return nil, &model.Problem{File: path, Line: line, Col: col, Field: d.Key, Message: fmt.Sprintf("duplicate key %q", d.Key)}
	}
	return &File{Path: path, Doc: doc, Root: root}, nil
}

// ProblemAt locates a FieldError of this file as a Problem.
func (f *File) ProblemAt(server string, e *jsondoc.FieldError) model.Problem {
	line, col := jsondoc.LineCol(f.Doc, e.Offset)
	return model.Problem{File: f.Path, Line: line, Col: col, Server: server, Field: e.Field, Message: e.Msg}
}

// describeIOError turns an OS error into words without repeating the path.
func describeIOError(err error) string {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	switch {
	case errors.Is(err, fs.ErrPermission):
		return "permission denied"
	case errors.Is(err, fs.ErrNotExist):
		return "it does not exist"
	}
	return err.Error()
}
