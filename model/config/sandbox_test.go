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
