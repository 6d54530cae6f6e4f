package config

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/winetest"
)

// TestServersTheTreeDidNotDefineStartInHome: with mcpdeck started in a
// subdirectory of a project, a server without cwd starts in the project
// root when the project (.mcp.json) or the local scope defines it, and in
// the home directory when any other scope does: plugin, user, a
// --mcp-config file or inline JSON, managed. Every resolved cwd is
// absolute, so the launcher never falls back to its own directory.
func TestServersTheTreeDidNotDefineStartInHome(t *testing.T) {
	f := newFixture(t)
	f.cwd = filepath.Join(f.proj, "sub", "dir")
	f.write(filepath.Join(f.cwd, "keep"), "")
	f.write(f.pluginFile("plug"), servers("plugin", `{"command":"npx","args":["-y","p@1.0.0"]}`))
	f.write(f.userFile(), servers("user", `{"command":"npx","args":["-y","u@1.0.0"]}`,
		"user-remote", `{"type":"http","url":"https://example.com/mcp"}`))
	f.write(f.projectFile(), servers("project", `{"command":"npx","args":["-y","j@1.0.0"]}`))
	f.write(f.localFile(), servers("local", `{"command":"npx","args":["-y","l@1.0.0"]}`))
	dyn := f.write(filepath.Join(f.proj, "dyn.json"), servers("dynamic-file", `{"command":"npx"}`))
	r := f.load(dyn, `{"mcpServers":{"dynamic-inline":{"command":"npx"}}}`)
	for name, want := range map[string]string{
		"plugin":         f.home,
		"user":           f.home,
		"user-remote":    f.home,
		"project":        f.proj,
		"local":          f.proj,
		"dynamic-file":   f.home,
		"dynamic-inline": f.home,
	} {
		s := mustServer(t, r, name)
		if s.Config.Cwd != want || !filepath.IsAbs(s.Config.Cwd) {
			t.Errorf("%s (%s): cwd %q, want %q", name, s.Scope, s.Config.Cwd, want)
		}
		if len(s.Problems) > 0 || s.OptsIntoProject() {
			t.Errorf("%s: problems %v, opts into project %v", name, s.Problems, s.OptsIntoProject())
		}
	}
	if got := mustServer(t, r, "user").RunsIn(); got != f.home {
		t.Errorf("user RunsIn = %q", got)
	}
	if got := mustServer(t, r, "user-remote").RunsIn(); got != "" {
		t.Errorf("a remote server runs no process, RunsIn = %q", got)
	}

	f.write(filepath.Join(f.managed, ManagedMCPFile), servers("managed", `{"command":"npx"}`))
	if s := mustServer(t, f.load(), "managed"); s.Config.Cwd != f.home {
		t.Errorf("managed: cwd %q, want home", s.Config.Cwd)
	}
}

// TestProjectDirOptIn: ${PROJECT_DIR} in cwd is the project root, set by
// mcpdeck whatever the environment holds, in every scope but plugins; in a
// user or --mcp-config definition it is the opt-in OptsIntoProject
// reports, in the project's own files it means what no cwd means. A plugin
// naming it gets a problem and does not run.
func TestProjectDirOptIn(t *testing.T) {
	f := newFixture(t)
	f.cwd = filepath.Join(f.proj, "sub")
	f.write(filepath.Join(f.cwd, "keep"), "")
	f.env[model.ProjectDirVar] = "/somewhere/else" // never used in cwd
	f.env["TOOLS"] = "tools"
	f.write(f.userFile(), servers(
		"opted", `{"command":"npx","args":["-y","u@1.0.0"],"cwd":"${PROJECT_DIR}"}`,
		"opted-sub", `{"command":"npx","cwd":"${PROJECT_DIR}/${TOOLS}"}`,
		"opted-default", `{"command":"npx","cwd":"${PROJECT_DIR:-/tmp}"}`,
		"in-args", `{"command":"srv","args":["${PROJECT_DIR}"]}`,
	))
	f.write(f.projectFile(), servers("project", `{"command":"npx","cwd":"${PROJECT_DIR}"}`))
	f.write(f.localFile(), servers("local", `{"command":"npx","cwd":"${PROJECT_DIR}"}`))
	f.write(f.pluginFile("plug"), servers("plugin", `{"command":"npx","args":["-y","p@1.0.0"],"cwd":"${PROJECT_DIR}"}`))
	r := f.load(`{"mcpServers":{"inline":{"command":"npx","cwd":"${PROJECT_DIR}"}}}`)
	for _, tc := range []struct {
		name, cwd string
		optsIn    bool
	}{
		{"opted", f.proj, true},
		{"opted-sub", filepath.Join(f.proj, "tools"), true},
		{"opted-default", f.proj, true},
		{"inline", f.proj, true},
		{"project", f.proj, false},
		{"local", f.proj, false},
	} {
		s := mustServer(t, r, tc.name)
		if s.Config.Cwd != tc.cwd || s.OptsIntoProject() != tc.optsIn || len(s.Problems) > 0 {
			t.Errorf("%s: cwd %q opts in %v problems %v, want %q %v none", tc.name, s.Config.Cwd, s.OptsIntoProject(), s.Problems, tc.cwd, tc.optsIn)
		}
		if s.Raw.Cwd == "" || !strings.Contains(s.Raw.Cwd, "${PROJECT_DIR") {
			t.Errorf("%s: Raw must keep what was written: %q", tc.name, s.Raw.Cwd)
		}
	}
	// Outside cwd, ${PROJECT_DIR} is an ordinary variable of the environment.
	if s := mustServer(t, r, "in-args"); s.Config.Args[0] != "/somewhere/else" || s.Config.Cwd != f.home || s.OptsIntoProject() {
		t.Errorf("in-args: args %v cwd %q", s.Config.Args, s.Config.Cwd)
	}
	p := mustServer(t, r, "plugin")
	if p.Runnable() || len(p.Problems) != 1 || p.Problems[0].Field != "cwd" || !strings.Contains(p.Problems[0].Message, "not a plugin's") ||
		p.Problems[0].File != f.pluginFile("plug") || p.Problems[0].Line == 0 {
		t.Errorf("plugin naming ${PROJECT_DIR}: runnable %v problems %+v", p.Runnable(), p.Problems)
	}
}

// TestRelativeArg pins the one rule that says which arguments are paths
// resolved against the directory a server runs in.
func TestRelativeArg(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, p := range []string{"data/file", "src", "mcp"} {
		touchFile(t, filepath.Join(dir, p))
	}
	for a, want := range map[string]bool{
		".":                 true,
		"..":                true,
		"./data":            true,
		"../x":              true,
		"./":                true,
		"./does/not/exist":  true,
		"--root=./data":     true,
		"-d=.":              true,
		"--dir=data/file":   true,
		"data/file":         true, // exists in dir
		"src":               true, // exists in dir
		"data":              true, // the directory holding file
		"data/other":        false,
		"mcp/fetch":         false, // an image, not a file here
		"@scope/pkg@1.0.0":  false,
		"pkg@1.0.0":         false,
		"stdio":             false,
		"-y":                false,
		"--root":            false,
		"--url=https://x/y": false,
		"https://x/./y":     false,
		"~/data":            false,
		"~":                 false,
		"/abs/path":         false,
		"":                  false,
		".hidden":           false, // a dot file that is not there
	} {
		if got := relativeArg(a, dir); got != want {
			t.Errorf("relativeArg(%q) = %v, want %v", a, got, want)
		}
	}
	t.Run("dots", func(t *testing.T) {
		// Three dots are a name on Windows too, of nothing here.
		winetest.Skip(t, `Wine 8 strips the dots of "..." and finds the directory itself`)
		if relativeArg("...", dir) {
			t.Error(`relativeArg("...") = true, want false`)
		}
	})
}

// TestHomeRelativeNamesWhatChangesMeaning: a server starting in home only
// because it sets no cwd lists its relative command and arguments, as
// written with secrets masked; project, local, remote servers and those
// with a cwd of their own list nothing.
func TestHomeRelativeNamesWhatChangesMeaning(t *testing.T) {
	f := newFixture(t)
	touchFile(t, filepath.Join(f.proj, "data", "db.sqlite"))
	f.env["DATA"] = "./data"
	f.write(f.userFile(), servers(
		"fs", `{"command":"npx","args":["-y","@modelcontextprotocol/server-filesystem@1.0.0",".","${DATA}","data/db.sqlite","/abs"]}`,
		"script", `{"command":"./bin/srv","args":["--token=./x"]}`,
		"own-cwd", `{"command":"./bin/srv","args":["."],"cwd":"~/work"}`,
		"opted", `{"command":"npx","args":["."],"cwd":"${PROJECT_DIR}"}`,
		"clean", `{"command":"npx","args":["-y","pkg@1.0.0","stdio"]}`,
		"remote", `{"type":"http","url":"https://example.com/./x"}`,
	))
	f.write(f.projectFile(), servers("project", `{"command":"./bin/srv","args":["."]}`))
	r := f.load(`{"mcpServers":{"inline":{"command":"node","args":["server.js","./lib"]}}}`)
	for name, want := range map[string][]string{
		"fs":      {".", "${DATA}", "data/db.sqlite"},
		"script":  {"./bin/srv", "--token=" + textsafe.Masked},
		"inline":  {"./lib"},
		"own-cwd": nil, "opted": nil, "clean": nil, "remote": nil, "project": nil,
	} {
		if got := mustServer(t, r, name).HomeRelative; !slices.Equal(got, want) {
			t.Errorf("%s: HomeRelative = %q, want %q", name, got, want)
		}
	}
}

func touchFile(t *testing.T, path string) {
	t.Helper()
	f := &fixture{t: t}
	f.write(path, "")
}
