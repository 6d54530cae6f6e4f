// Package idefind finds the editors that have a project open through the
// lock files they write, and watches the directory that holds them, so
// that an editor opening or closing the project comes and goes as a
// server. What a lock file says and whether it is trusted are engine/ide's
// to decide; this reads the files, asks the system whether their editors
// run, and names the servers.
package idefind

import (
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine/ide"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ConfigDirVar names the directory editors write their lock files under
// (its ide subdirectory), ~/.claude when unset.
const ConfigDirVar = "CLAUDE_CONFIG_DIR"

// Finder finds the editors that have the project open and watches their
// lock files' directory. Servers keeps the names it gave (ide.Names), so
// its callers serialize their calls of it (the engine's reloads are).
type Finder struct {
	dir   string // "" when there is nowhere to look
	log   *slog.Logger
	names ide.Names
	poke  chan struct{} // a connection to an editor ended: look again
}

// New is a Finder of the lock files under lookup's ConfigDirVar, else
// under home; it logs to log what it ignores.
func New(lookup func(string) (string, bool), home string, log *slog.Logger) *Finder {
	return &Finder{dir: lockDir(lookup, home), log: log, poke: make(chan struct{}, 1)}
}

// Dir is the directory of lock files, "" when there is nowhere to look.
func (p *Finder) Dir() string { return p.dir }

// lockDir is $CLAUDE_CONFIG_DIR/ide, else HOME/.claude/ide; "" with
// neither.
func lockDir(lookup func(string) (string, bool), home string) string {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	if v, ok := lookup(ConfigDirVar); ok && v != "" {
		return filepath.Join(v, "ide")
	}
	if home == "" {
		return ""
	}
	return filepath.Join(home, ".claude", "ide")
}

// Servers are the dynamic servers of the live editors whose workspace
// holds cwd, named (ide.Names) around the names configured takes, and a
// notice for each lock file ignored (ide.Ignored). It reads files and
// asks the system about processes: no caller holds a lock others wait on.
func (p *Finder) Servers(cwd string, configured func(string) bool) ([]model.Server, []string) {
	eds, ignored := p.scan(cwd)
	named := p.names.Assign(eds, configured)
	out := make([]model.Server, 0, len(named))
	for name, ed := range named {
		out = append(out, ed.Server(name))
	}
	slices.SortFunc(out, func(a, b model.Server) int { return strings.Compare(a.Name, b.Name) })
	return out, ignored
}

// scan reads every PORT.lock of the directory and keeps the editors that
// are running and have cwd open; each file it ignores is logged with why,
// and noticed (ide.Ignored).
func (p *Finder) scan(cwd string) (out []ide.Editor, ignored []string) {
	if p.dir == "" || cwd == "" {
		return nil, nil
	}
	project, err := resolvedPath(cwd)
	if err != nil {
		return nil, nil
	}
	ents, err := os.ReadDir(p.dir)
	if err != nil {
		return nil, nil // no editor has written here yet
	}
	for _, ent := range ents {
		if !strings.HasSuffix(ent.Name(), ".lock") {
			continue
		}
		path := filepath.Join(p.dir, ent.Name())
		ed, ok, err := p.editor(path, ent.Name(), project)
		switch {
		case err != nil:
			p.log.Info("ignoring an editor's lock file", "file", textsafe.SanitizeLine(path), "reason", textsafe.SanitizeLine(err.Error()))
			ignored = append(ignored, ide.Ignored(path, err))
		case ok:
			out = append(out, ed)
		}
	}
	return out, ignored
}

// editor reads one lock file: the editor, whether it is live and has
// project open, or why the file is not trusted or not understood.
func (p *Finder) editor(path, name, project string) (ide.Editor, bool, error) {
	data, err := readLockFile(path)
	if err != nil {
		return ide.Editor{}, false, err
	}
	l, err := ide.Parse(name, data)
	if err != nil {
		return ide.Editor{}, false, err
	}
	if !processAlive(l.PID) {
		p.log.Debug("an editor's lock file outlived it", "file", textsafe.SanitizeLine(path), "pid", l.PID)
		return ide.Editor{}, false, nil
	}
	for _, f := range l.Workspaces {
		if !filepath.IsAbs(f) {
			continue
		}
		if folder, err := resolvedPath(f); err == nil && ide.Contains(folder, project) {
			return ide.Editor{Lock: l, Folder: folder}, true, nil
		}
	}
	return ide.Editor{}, false, nil
}

// resolvedPath is path absolute, cleaned and with its symlinks resolved,
// so that containment compares the directories themselves.
func resolvedPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// readJudged reads the opened lock file f if the trust rule
// (ide.CheckFile) passes what fstat says of the file itself.
func readJudged(f *os.File) ([]byte, error) {
	fi, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if err := ide.CheckFile(lockFacts(fi)); err != nil {
		return nil, err
	}
	return readBounded(f)
}

// readBounded reads at most ide.MaxLockSize bytes; a file that grew past
// it since it was judged is refused.
func readBounded(r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, ide.MaxLockSize+1))
	if err == nil && len(data) > ide.MaxLockSize {
		err = ide.CheckFile(ide.FileFacts{Regular: true, Owned: true, Size: int64(len(data))})
	}
	return data, err
}
