package ide

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// MaxLockSize bounds a lock file: a real one is a few hundred bytes, and a
// larger one is not read at all.
const MaxLockSize = 64 << 10

// maxNameLen bounds the editor's name as shown.
const maxNameLen = 64

// Reasons a lock file is ignored; the engine logs which, with the file.
var (
	ErrUntrusted  = errors.New("lock file not trusted")
	ErrMalformed  = errors.New("lock file malformed")
	ErrNotLocal   = errors.New("lock file names a host other than loopback")
	ErrNotEditors = errors.New("lock file names a transport no editor speaks")
)

// Ignored is the notice for a lock file the engine did not use, so that an
// editor's server that vanished says why: the file, the reason, and what
// makes it usable. err is CheckFile's or Parse's.
func Ignored(path string, err error) string {
	fix := "the editor writes it again when it restarts"
	switch {
	case errors.Is(err, ErrUntrusted) && strings.Contains(err.Error(), "others may write it"):
		fix = "make it yours alone: chmod go-w " + path
	case errors.Is(err, ErrUntrusted) && strings.Contains(err.Error(), "not owned by you"):
		fix = "only a file you own is read: the editor running as you writes one"
	case errors.Is(err, ErrNotLocal):
		fix = "only an editor on this machine is connected"
	}
	return textsafe.SanitizeLine("editor lock file " + path + " ignored (" + err.Error() + "): its editor's server is not offered; " + fix)
}

// FileFacts is what the engine learned of a lock file from the file
// system, before reading it.
type FileFacts struct {
	Symlink  bool  // the name is a symbolic link
	Regular  bool  // a regular file (not a directory, socket, device...)
	Size     int64 // bytes
	Owned    bool  // owned by the user mcpdeck runs as
	Writable bool  // writable by its group or by others
}

// CheckFile is the trust rule of a lock file: a regular file, not a
// symlink, owned by you, writable by no one else, at most MaxLockSize.
// Anyone else could otherwise point mcpdeck at a server of their choosing
// or feed it a file of any size.
func CheckFile(f FileFacts) error {
	switch {
	case f.Symlink:
		return fmt.Errorf("%w: it is a symbolic link", ErrUntrusted)
	case !f.Regular:
		return fmt.Errorf("%w: it is not a regular file", ErrUntrusted)
	case !f.Owned:
		return fmt.Errorf("%w: it is not owned by you", ErrUntrusted)
	case f.Writable:
		return fmt.Errorf("%w: others may write it", ErrUntrusted)
	case f.Size > MaxLockSize:
		return fmt.Errorf("%w: it is larger than %d KB", ErrUntrusted, MaxLockSize>>10)
	}
	return nil
}

// Lock is what an editor's lock file says, checked.
type Lock struct {
	Port       int      // from the file's name, PORT.lock
	PID        int      // the editor's process
	Workspaces []string // workspaceFolders, as written
	Name       string   // ideName, sanitized for one line and bounded
	Transport  model.TransportInfo
	Token      string // authToken; "" for a transport that sends none
}

// lockJSON is the file's shape. Host is not written by the plugins this
// was built from; a file that writes one must name loopback.
type lockJSON struct {
	PID              *int     `json:"pid"`
	WorkspaceFolders []string `json:"workspaceFolders"`
	IDEName          string   `json:"ideName"`
	Transport        string   `json:"transport"`
	AuthToken        string   `json:"authToken"`
	Host             string   `json:"host"`
}

// Parse reads the lock file named file (its base name, "PORT.lock") with
// content data. The port must be 1 to 65535, pid positive, the transport
// one an editor speaks (model.EditorTransport), and a token, where the
// transport sends one, 10 to 500 visible ASCII characters that a masker
// can hide (textsafe.WorthMasking). Errors never quote the token.
func Parse(file string, data []byte) (Lock, error) {
	digits, ok := strings.CutSuffix(file, ".lock")
	port, err := strconv.Atoi(digits)
	if !ok || err != nil || port < 1 || port > 65535 || strconv.Itoa(port) != digits {
		return Lock{}, fmt.Errorf("%w: the name is not PORT.lock with a port from 1 to 65535", ErrMalformed)
	}
	var doc lockJSON
	if err := json.NewDecoder(bytes.NewReader(data)).Decode(&doc); err != nil {
		return Lock{}, fmt.Errorf("%w: not the JSON object an editor writes", ErrMalformed)
	}
	if doc.Host != "" && !model.LoopbackHost(strings.Trim(doc.Host, "[]")) {
		return Lock{}, ErrNotLocal
	}
	if doc.PID == nil || *doc.PID <= 0 {
		return Lock{}, fmt.Errorf("%w: pid is missing or not a process id", ErrMalformed)
	}
	ti, ok := model.EditorTransport(doc.Transport)
	if !ok {
		return Lock{}, fmt.Errorf("%w: %q", ErrNotEditors, textsafe.SanitizeLine(doc.Transport))
	}
	l := Lock{Port: port, PID: *doc.PID, Workspaces: doc.WorkspaceFolders, Name: displayName(doc.IDEName), Transport: ti}
	if ti.TokenHeader != "" {
		if !goodToken(doc.AuthToken) {
			return Lock{}, fmt.Errorf("%w: authToken is missing, or not 10 to 500 visible characters", ErrMalformed)
		}
		l.Token = doc.AuthToken
	}
	return l, nil
}

// goodToken reports whether t can travel in a header and be masked.
func goodToken(t string) bool {
	if len(t) < 10 || len(t) > 500 || !textsafe.WorthMasking(t) {
		return false
	}
	for i := range len(t) {
		if t[i] <= ' ' || t[i] > '~' {
			return false
		}
	}
	return true
}

// displayName is ideName made safe to show: sanitized, on one line,
// bounded; "editor" when it says nothing.
func displayName(name string) string {
	name = strings.TrimSpace(textsafe.SanitizeLine(name))
	if r := []rune(name); len(r) > maxNameLen {
		name = string(r[:maxNameLen]) + "…"
	}
	if name == "" {
		return "editor"
	}
	return name
}
