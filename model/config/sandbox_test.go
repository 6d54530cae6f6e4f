package config

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestLoadPlacesSandboxPaths: a loaded server's sandbox paths are
// absolute: ${VAR} expanded, ~ under home, relative ones under the
// directory it runs in; the definition as written keeps them as typed.
func TestLoadPlacesSandboxPaths(t *testing.T) {
	f := newFixture(t)
	f.env["SBX_DATA"] = filepath.ToSlash(rooted("/srv/data"))
	f.write(f.projectFile(), servers("boxed", `{"command":"npx","sandbox":{"read":["~/notes","${SBX_DATA}/in"],"write":["out","~"]}}`))
	s := mustServer(t, f.load(), "boxed")
	if len(s.Problems) > 0 {
		t.Fatal(s.Problems)
	}
	wantRead := []string{filepath.Join(f.home, "notes"), rooted("/srv/data/in")}
	wantWrite := []string{filepath.Join(f.proj, "out"), f.home}
	if !slices.Equal(s.Config.Sandbox.Read, wantRead) || !slices.Equal(s.Config.Sandbox.Write, wantWrite) {
		t.Errorf("read %v write %v, want %v %v", s.Config.Sandbox.Read, s.Config.Sandbox.Write, wantRead, wantWrite)
	}
	if s.Raw.Sandbox.Read[0] != "~/notes" {
		t.Errorf("the definition as written changed: %v", s.Raw.Sandbox.Read)
	}
}

// TestLoadSandboxOnlyForStdio: a remote server cannot ask for a sandbox
// (nothing of it runs here); the problem names the field.
func TestLoadSandboxOnlyForStdio(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("remote", `{"type":"http","url":"https://example.com/mcp","sandbox":true}`))
	s := mustServer(t, f.load(), "remote")
	if len(s.Problems) != 1 || s.Problems[0].Field != "sandbox" || !strings.Contains(s.Problems[0].Message, "only a server mcpdeck starts") {
		t.Errorf("problems = %+v", s.Problems)
	}
}

// TestSandboxSocketsOnlyInUserScope: a user definition may list unix
// sockets (placed like paths, shown when approving); a project's, a
// local one's or a plugin's may not: the problem names the field.
func TestSandboxSocketsOnlyInUserScope(t *testing.T) {
	f := newFixture(t)
	def := `{"command":"npx","sandbox":{"sockets":["~/.docker/run/docker.sock"]}}`
	f.write(f.userFile(), servers("mine", def))
	f.write(f.projectFile(), servers("theirs", def))
	r := f.load()
	mine := mustServer(t, r, "mine")
	if len(mine.Problems) > 0 || !slices.Equal(mine.Config.Sandbox.Sockets, []string{filepath.Join(f.home, ".docker/run/docker.sock")}) {
		t.Errorf("user scope: problems %v, sockets %v", mine.Problems, mine.Config.Sandbox.Sockets)
	}
	theirs := mustServer(t, r, "theirs")
	if len(theirs.Problems) != 1 || theirs.Problems[0].Field != "sandbox.sockets" || !strings.Contains(theirs.Problems[0].Message, "only a user-scope definition") {
		t.Errorf("project scope: problems %+v", theirs.Problems)
	}
	var lines []string
	for _, l := range ApprovalView(theirs.Raw, "", f.projectFile()) {
		lines = append(lines, l.Label+": "+l.Value)
	}
	if !slices.Contains(lines, "Sandbox sockets: ~/.docker/run/docker.sock") {
		t.Errorf("approval view lacks the socket:\n%s", strings.Join(lines, "\n"))
	}
}

// TestApprovalViewShowsSandbox: approving a definition shows its sandbox,
// each added path and host, and its unknown sandbox fields.
func TestApprovalViewShowsSandbox(t *testing.T) {
	var raw model.ServerConfig
	if err := json.Unmarshal([]byte(`{"command":"x","sandbox":{"read":["/data"],"write":["~/out"],"network":["api.github.com"],"mode":"x"}}`), &raw); err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, l := range ApprovalView(raw, "", "/p/.mcp.json") {
		got = append(got, l.Label+": "+l.Value)
	}
	for _, want := range []string{
		"Sandbox: default profile", "Sandbox reads: /data", "Sandbox writes: ~/out",
		"Sandbox network: api.github.com", `Sandbox unknown field: mode: "x"`,
	} {
		if !slices.Contains(got, want) {
			t.Errorf("approval view lacks %q:\n%s", want, strings.Join(got, "\n"))
		}
	}
	if fs := UnknownFields(raw); len(fs) != 1 || fs[0].Field != "sandbox.mode" {
		t.Errorf("UnknownFields = %+v", fs)
	}
}

// TestAllowSandboxHost: the host joins the network list in the user or
// local file, the rest of the definition kept as written; a project
// server's .mcp.json is never written, and neither is a server without a
// sandbox.
func TestAllowSandboxHost(t *testing.T) {
	f := newFixture(t)
	f.write(f.userFile(), servers("boxed", `{"command":"npx","args":["-y","x"],"sandbox":{"read":["~/d"],"network":["a.com"]}}`, "open", `{"command":"npx"}`))
	f.write(f.projectFile(), servers("shared", `{"command":"npx","sandbox":true}`))
	path, err := AllowSandboxHost(f.opts(), model.ScopeUser, "boxed", "api.example.com")
	if err != nil || path != f.userFile() {
		t.Fatalf("user: %q %v", path, err)
	}
	s := mustServer(t, f.load(), "boxed")
	if got := s.Raw.Sandbox.Network.Hosts; !slices.Equal(got, []string{"a.com", "api.example.com"}) || s.Raw.Sandbox.Read[0] != "~/d" || s.Raw.Args[1] != "x" {
		t.Errorf("after: %+v", s.Raw)
	}
	before, _ := os.ReadFile(f.projectFile())
	if _, err := AllowSandboxHost(f.opts(), model.ScopeProject, "shared", "api.example.com"); !errors.Is(err, model.ErrInvalid) || !strings.Contains(err.Error(), "user or local settings") {
		t.Errorf("project: %v", err)
	}
	if after, _ := os.ReadFile(f.projectFile()); string(after) != string(before) {
		t.Error("the project's .mcp.json was written")
	}
	if _, err := AllowSandboxHost(f.opts(), model.ScopeUser, "open", "api.example.com"); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("no sandbox: %v", err)
	}
	if _, err := AllowSandboxHost(f.opts(), model.ScopeUser, "boxed", "https://x"); !errors.Is(err, model.ErrInvalid) {
		t.Errorf("not a host: %v", err)
	}
}

// TestSandboxPathsNameTheProject: the README's own
// "write": ["${PROJECT_DIR}/out"] works in the person's definitions:
// ${PROJECT_DIR} is the project root in a sandbox's paths as in cwd,
// whatever the environment says, and the entries written with it are
// marked (with no project a sandbox may open, they open nothing). A
// plugin may not name it there either.
func TestSandboxPathsNameTheProject(t *testing.T) {
	f := newFixture(t)
	f.env[model.ProjectDirVar] = "/somewhere/else"
	f.write(f.userFile(), servers("boxed", `{"command":"npx","sandbox":{"read":["~/notes","${PROJECT_DIR}/docs"],"write":["${PROJECT_DIR}/out"]}}`))
	f.write(f.pluginFile("plug"), servers("plugged", `{"command":"npx","args":["-y","p@1.0.0"],"sandbox":{"write":["${PROJECT_DIR}/out"]}}`))
	r := f.load()
	s := mustServer(t, r, "boxed")
	if len(s.Problems) > 0 {
		t.Fatalf("problems: %v", s.Problems)
	}
	box := s.Config.Sandbox
	if !slices.Equal(box.Write, []string{filepath.Join(f.proj, "out")}) || !slices.Equal(box.Read, []string{filepath.Join(f.home, "notes"), filepath.Join(f.proj, "docs")}) {
		t.Errorf("read %v write %v", box.Read, box.Write)
	}
	if box.NamesProject(false, 0) || !box.NamesProject(false, 1) || !box.NamesProject(true, 0) {
		t.Errorf("marks: read %v write %v", box.ProjectRead, box.ProjectWrite)
	}
	p := mustServer(t, r, "plugged")
	if p.Runnable() || len(p.Problems) != 1 || p.Problems[0].Field != "sandbox" || !strings.Contains(p.Problems[0].Message, "not a plugin's") {
		t.Errorf("plugin: runnable %v problems %+v", p.Runnable(), p.Problems)
	}
}
