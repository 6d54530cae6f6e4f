package engcmd

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/skilltest"
)

func skillsConfig(t *testing.T, srv *skilltest.Server) string {
	t.Helper()
	b, err := json.Marshal(map[string]any{"mcpServers": map[string]any{"sk": map[string]any{"type": "http", "url": srv.HTTP.URL, "protocolVersion": "2025-11-25"}}})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// TestEngSkillsListsAndLoads: `skills` lists names, descriptions and file
// sizes without reading a file; `skill` prints the SKILL.md.
func TestEngSkillsListsAndLoads(t *testing.T) {
	srv := skilltest.New()
	defer srv.Close()
	e := clitest.NewEnv(t)
	cfg := skillsConfig(t, srv)
	r := e.OK("--mcp-config", cfg, "skills", "sk")
	for _, want := range []string{"sk (2 skills)", "alpha — Fill in forms", skilltest.AlphaForms + " (17 bytes)", "beta — Summarise long documents"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("skills output lacks %q:\n%s", want, r.Stdout)
		}
	}
	if reads := srv.Reads(); len(reads) != 0 {
		t.Fatalf("listing read files: %v", reads)
	}
	r = e.OK("--mcp-config", cfg, "skill", "sk", "alpha")
	if r.Stdout != skilltest.AlphaBody {
		t.Fatalf("skill printed %q", r.Stdout)
	}
}

// TestEngSkillMismatchPrintsNothing: a tampered SKILL.md fails the command,
// prints nothing on stdout, and the error names server, skill and file.
func TestEngSkillMismatchPrintsNothing(t *testing.T) {
	srv := skilltest.New()
	defer srv.Close()
	srv.Serve(skilltest.AlphaURI, strings.Replace(skilltest.AlphaBody, "Alpha body.", "Evil body!!", 1))
	e := clitest.NewEnv(t)
	r := e.Fails(1, "--mcp-config", skillsConfig(t, srv), "skill", "sk", "alpha")
	if r.Stdout != "" {
		t.Fatalf("printed content of a refused skill: %q", r.Stdout)
	}
	for _, want := range []string{"skill alpha on sk", skilltest.AlphaURI, "digest"} {
		if !strings.Contains(r.Stderr, want) {
			t.Errorf("stderr %q lacks %q", r.Stderr, want)
		}
	}
}
