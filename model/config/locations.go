package config

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/private"
)

// File names of the scopes, relative to their directories.
const (
	ManagedMCPFile      = "managed-mcp.json"
	ManagedSettingsFile = "managed-settings.json"
	UserSettingsFile    = "settings.json"
	ProjectFile         = ".mcp.json"
	pluginsDir          = "plugins"
)

// locations are the configuration paths for one LoadOptions.
type locations struct {
	managedMCP      string
	managedSettings string
	pluginsDir      string
	plugins         []pluginFile
	user            string
	walked          []string // every .mcp.json candidate looked at, nearest first
	project         string   // nearest existing .mcp.json, "" if none
	root            string   // project root
	projectsDir     string   // <ConfigDir>/projects
	local           string   // the person's private state of this project
	untrusted       string   // <root>/.mcpdeck/settings.local.json, never trusted
}

type pluginFile struct{ plugin, path string }

// discover finds the files. The project file is the nearest .mcp.json walking
// up from Cwd, stopping at Home (inclusive) or the filesystem root. The
// project root is the directory of that file, else Cwd. Nothing else inside
// the working tree or above it (a .mcpdeck directory, say) changes the root:
// a file someone else can put there must not decide whose state applies. The
// person's private state of the project lives in the config dir, keyed by the
// root's canonical path.
func discover(o LoadOptions) locations {
	l := locations{
		managedMCP:      filepath.Join(o.ManagedDir, ManagedMCPFile),
		managedSettings: filepath.Join(o.ManagedDir, ManagedSettingsFile),
		pluginsDir:      filepath.Join(o.ConfigDir, pluginsDir),
		user:            filepath.Join(o.ConfigDir, UserSettingsFile),
		projectsDir:     filepath.Join(o.ConfigDir, private.ProjectsDir),
	}
	home := filepath.Clean(o.Home)
	for dir := filepath.Clean(o.Cwd); ; {
		cand := filepath.Join(dir, ProjectFile)
		l.walked = append(l.walked, cand)
		_, err := os.Lstat(cand)
		hasProject := err == nil
		if hasProject && l.project == "" {
			l.project = cand
			l.root = dir
		}
		parent := filepath.Dir(dir)
		if l.project != "" || (o.Home != "" && dir == home) || parent == dir {
			break
		}
		dir = parent
	}
	if l.root == "" {
		l.root = filepath.Clean(o.Cwd)
	}
	l.local = private.StatePath(l.projectsDir, l.root)
	l.untrusted = filepath.Join(l.root, private.UntrustedLocalDir, private.UntrustedLocalFile)
	l.plugins = listPlugins(l.pluginsDir)
	return l
}

// listPlugins returns plugins/<name>/.mcp.json for every plugin directory,
// sorted by name: that order is the "first loaded" of the dedup rule.
func listPlugins(dir string) []pluginFile {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil
	}
	var out []pluginFile
	for _, e := range entries {
		p := filepath.Join(dir, e.Name())
		if isDir(p) {
			out = append(out, pluginFile{plugin: e.Name(), path: filepath.Join(p, ProjectFile)})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].plugin < out[j].plugin })
	return out
}

func isDir(p string) bool {
	st, err := os.Stat(p)
	return err == nil && st.IsDir()
}

// scopeFile returns the file a writable scope stores its servers in.
func (l locations) scopeFile(s model.Scope) (string, bool) {
	switch s {
	case model.ScopeUser:
		return l.user, true
	case model.ScopeProject:
		if l.project != "" {
			return l.project, true
		}
		return filepath.Join(l.root, ProjectFile), true
	case model.ScopeLocal:
		return l.local, true
	case model.ScopeConnector, model.ScopePlugin, model.ScopeDynamic, model.ScopeEnterprise:
		return "", false
	}
	return "", false
}

// ScopePath returns the file AddServer and RemoveServer use for a writable
// scope (local, project, user), so a UI can say where a definition will go.
// For local it is the person's private state of the project, outside the
// working tree.
func ScopePath(opts LoadOptions, scope model.Scope) (string, error) {
	if err := opts.check(); err != nil {
		return "", err
	}
	p, ok := discover(opts).scopeFile(scope)
	if !ok {
		return "", fmt.Errorf("%w: the %s scope is not stored in a file mcpdeck edits (use local, user or project)", model.ErrInvalid, scope)
	}
	return p, nil
}

// edit is the read-modify-write of a writable scope's file: the private
// state of the project goes through EditState, the others through Edit.
func (l locations) edit(s model.Scope, fn func(f *jsonfile.File) ([]byte, error)) error {
	if s == model.ScopeLocal {
		return private.EditState(l.local, l.root, fn)
	}
	path, _ := l.scopeFile(s)
	return jsonfile.Edit(path, l.writeRules(s), fn)
}

// writeRules returns the rules for the file of a writable scope: files in
// the project root are bounded by it; user settings may link anywhere.
func (l locations) writeRules(s model.Scope) jsonfile.WriteRules {
	r := jsonfile.WriteRules{NewMode: jsonfile.NewFileMode(s)}
	if s == model.ScopeProject { // local scope is private state in the config dir
		r.Within = l.root
	} else {
		r.Backup = true // the person's settings, perhaps shaped by hand; not a file in the repository
	}
	return r
}
