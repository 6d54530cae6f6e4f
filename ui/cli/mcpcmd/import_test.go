package mcpcmd

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// placeFixture copies testdata/import/<from> to a client's real location.
func placeFixture(e *clitest.Env, from, to string) {
	e.T.Helper()
	data, err := os.ReadFile(clitest.RepoPath(e.T, "testdata", "import", from))
	if err != nil {
		e.T.Fatal(err)
	}
	e.WriteFile(to, strings.ReplaceAll(string(data), "__PROJECT__", e.Proj))
}

type importDoc struct {
	From    string   `json:"from"`
	Scope   string   `json:"scope"`
	Files   []string `json:"files"`
	Servers []struct {
		Name      string   `json:"name"`
		Status    string   `json:"status"`
		Reason    string   `json:"reason"`
		Transport string   `json:"transport"`
		Source    string   `json:"source"`
		Notes     []string `json:"notes"`
	} `json:"servers"`
	Problems []string `json:"problems"`
}

// importJSON runs `mcp import --json` and returns status and reason by name.
func importJSON(e *clitest.Env, args ...string) (map[string]string, map[string]string, importDoc) {
	e.T.Helper()
	r := e.OK(append([]string{"mcp", "import", "--json"}, args...)...)
	var doc importDoc
	if err := json.Unmarshal([]byte(r.Stdout), &doc); err != nil {
		e.T.Fatalf("import --json: %v\n%s", err, r)
	}
	status, reason := map[string]string{}, map[string]string{}
	for _, s := range doc.Servers {
		if _, dup := status[s.Name]; !dup {
			status[s.Name], reason[s.Name] = s.Status, s.Reason
		} else {
			status[s.Name+"#2"], reason[s.Name+"#2"] = s.Status, s.Reason
		}
	}
	return status, reason, doc
}

func wantStatus(t *testing.T, got map[string]string, want map[string]string) {
	t.Helper()
	for n, w := range want {
		if got[n] != w {
			t.Errorf("%s: status %q, want %q (all: %v)", n, got[n], w, got)
		}
	}
	if len(got) != len(want) {
		t.Errorf("statuses %v, want exactly %v", got, want)
	}
}

func TestImportClaudeDesktop(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "claude-desktop/claude_desktop_config.json", filepath.Join(e.Config, "Claude", "claude_desktop_config.json"))
	e.OK("mcp", "add", "-s", "user", "docs", "https://other.example.com/mcp")
	status, reason, doc := importJSON(e, "--from", "claude-desktop")
	wantStatus(t, status, map[string]string{
		"filesystem": "imported", "github": "imported", "docs": "skipped", "no-command": "not-converted",
	})
	if !strings.Contains(reason["docs"], "user scope") {
		t.Errorf("skip reason = %q", reason["docs"])
	}
	if doc.Scope != "" {
		t.Errorf("without -s, scope = %s, want none (each server goes where the client keeps it)", doc.Scope)
	}
	gh := e.Get("github") // Claude Desktop's servers are user-wide
	if gh.Scope != "user" || gh.Command != "npx" || gh.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "****" {
		t.Errorf("imported github = %+v", gh)
	}
	// A second import skips everything that is now present.
	status, _, _ = importJSON(e, "--from", "claude-desktop")
	if status["filesystem"] != "skipped" || status["github"] != "skipped" {
		t.Errorf("re-import: %v", status)
	}
}

func TestImportClaudeCode(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "claude-code/claude.json", filepath.Join(e.Home, ".claude.json"))
	placeFixture(e, "claude-code/mcp.json", filepath.Join(e.Proj, ".mcp.json"))
	status, reason, _ := importJSON(e, "--from", "claude-code", "--scope", "user")
	wantStatus(t, status, map[string]string{
		"shared": "imported", "ide": "not-converted", "db": "present", "sentry": "imported", "shared#2": "skipped",
	})
	if !strings.Contains(reason["db"], "project scope") {
		t.Errorf("db (in .mcp.json, mcpdeck's own project file) reason = %q", reason["db"])
	}
	if s := e.Get("shared"); s.Scope != "user" || s.Command != "local-version" {
		t.Errorf("the project-specific definition should win: %+v", s)
	}
	if s := e.Get("sentry"); s.Transport != "http" || s.URL != "https://mcp.sentry.dev/mcp" {
		t.Errorf("sentry = %+v", s)
	}
}

func TestImportVSCode(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "vscode/mcp.json", filepath.Join(e.Proj, ".vscode", "mcp.json"))
	placeFixture(e, "vscode/settings.json", filepath.Join(e.Config, "Code", "User", "settings.json"))
	r := e.OK("mcp", "import", "--from", "vscode")
	for _, want := range []string{"✓ fetch: imported", "✗ perplexity: not converted", "${input:perplexity-key}", "✗ with-env-file: not converted", "Imported 4, skipped 0, not converted 2."} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("report lacks %q:\n%s", want, r.Stdout)
		}
	}
	f := e.Get("fetch")
	if f.Env["FETCH_TOKEN"] != "${FETCH_TOKEN}" {
		t.Errorf("${env:VAR} not converted: %+v", f.Env)
	}
	if !strings.Contains(e.ReadFile(e.ScopeFile("project")), `"cwd": "`+e.Proj+`"`) {
		t.Errorf("${workspaceFolder} not replaced by the project dir:\n%s", e.ReadFile(e.ScopeFile("project")))
	}
	if s := e.Get("legacy"); s.Transport != "sse" {
		t.Errorf("legacy = %+v", s)
	}
	if s := e.Get("time"); s.Args[1] != "--local-timezone=${TZ}" {
		t.Errorf("time = %+v", s)
	}
}

// A repository's own editor files define servers that anyone who can commit
// to it wrote: importing them must not make them run without approval, even
// into the default (local) or user scope.
func TestImportOfRepositoryFilesAwaitsApproval(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ from, file string }{
		{"vscode", filepath.Join(".vscode", "mcp.json")},
		{"cursor", filepath.Join(".cursor", "mcp.json")},
	} {
		for _, scope := range []string{"local", "user"} {
			e := clitest.NewEnv(t)
			e.WriteFile(filepath.Join(e.Proj, c.file), `{"servers": {"repo-tool": {"command": "sh", "args": ["-c", "id"]}},
				"mcpServers": {"repo-tool": {"command": "sh", "args": ["-c", "id"]}}}`)
			r := e.OK("mcp", "import", "--from", c.from, "-s", scope)
			s := e.Get("repo-tool")
			if s.Scope != "project" || s.Approval.Status != "pending" {
				t.Errorf("%s -s %s: repo-tool has scope %s, approval %s\n%s", c.from, scope, s.Scope, s.Approval.Status, r)
			}
			for _, want := range []string{"into the project scope (" + e.ScopeFile("project") + "), awaiting approval", "mcpdeck mcp approve"} {
				if !strings.Contains(r.Stdout, want) {
					t.Errorf("%s -s %s: report lacks %q:\n%s", c.from, scope, want, r.Stdout)
				}
			}
		}
	}
}

func TestImportCursor(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "cursor/user-mcp.json", filepath.Join(e.Home, ".cursor", "mcp.json"))
	placeFixture(e, "cursor/project-mcp.json", filepath.Join(e.Proj, ".cursor", "mcp.json"))
	status, reason, doc := importJSON(e, "--from", "cursor", "-s", "project")
	wantStatus(t, status, map[string]string{
		"local-tool": "imported", "needs-config": "not-converted", "linear": "imported", "context7": "imported", "oauth-app": "imported",
	})
	if !strings.Contains(reason["needs-config"], "${config:tool.path}") {
		t.Errorf("needs-config reason = %q", reason["needs-config"])
	}
	if len(doc.Files) != 2 {
		t.Errorf("files read = %v", doc.Files)
	}
	if s := e.Get("linear"); s.Transport != "sse" || s.Scope != "project" || s.Approval.Status != "pending" {
		t.Errorf("linear = %+v", s)
	}
	if s := e.Get("context7"); s.Transport != "http" || s.Headers["CONTEXT7_API_KEY"] != "${CONTEXT7_KEY}" {
		t.Errorf("context7 = %+v", s)
	}
	o := e.Get("oauth-app")
	if o.OAuth == nil || o.OAuth.ClientID != "cursor-client" {
		t.Errorf("oauth-app = %+v", o)
	}
	if strings.Contains(e.ReadFile(e.ScopeFile("project")), "fixture-secret") {
		t.Error("Cursor's client secret was written to config")
	}
}

func TestImportFromFile(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	elsewhere := filepath.Join(e.Home, "other", ".vscode", "mcp.json")
	placeFixture(e, "vscode/mcp.json", elsewhere)
	status, _, doc := importJSON(e, "--from", "vscode", "--file", elsewhere)
	if status["fetch"] != "imported" || len(doc.Files) != 1 || doc.Files[0] != elsewhere {
		t.Fatalf("import --file: %v %+v", status, doc)
	}
	// ${workspaceFolder} is the folder holding .vscode, not the working
	// directory; another repository's file is shared too, so its servers
	// wait for approval in this project's .mcp.json.
	if !strings.Contains(e.ReadFile(e.ScopeFile("project")), filepath.Join(e.Home, "other")) {
		t.Errorf("workspace of --file not used:\n%s", e.ReadFile(e.ScopeFile("project")))
	}
	if s := e.Get("fetch"); s.Scope != "project" || s.Approval.Status != "pending" {
		t.Errorf("fetch from another repository: scope %s approval %s", s.Scope, s.Approval.Status)
	}
}

func TestImportBrokenFileIsReported(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.WriteFile(filepath.Join(e.Proj, ".cursor", "mcp.json"), `{"mcpServers": {"x": {"command": "a"}`)
	placeFixture(e, "cursor/user-mcp.json", filepath.Join(e.Home, ".cursor", "mcp.json"))
	r := e.Run("mcp", "import", "--from", "cursor")
	if r.Code != 1 || !strings.Contains(r.Stdout, "✓ linear: imported") || !strings.Contains(r.Stderr, ".cursor/mcp.json:1:") {
		t.Fatalf("a broken file must be reported (exit 1) while the other is imported: %s", r)
	}
}

// TestImportIntoBrokenFileFails: when the file to import into cannot be
// parsed, import stops with one sentence naming it (exit 1) instead of
// reporting every server as "not converted", and leaves the file as it was.
func TestImportIntoBrokenFileFails(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "claude-desktop/claude_desktop_config.json", filepath.Join(e.Config, "Claude", "claude_desktop_config.json"))
	const broken = `{"mcpServers": {`
	e.WriteFile(e.ScopeFile("user"), broken) // where Claude Desktop's servers go
	r := e.Fails(1, "mcp", "import", "--from", "claude-desktop")
	if want := "mcpdeck: cannot import into the user scope: invalid JSON"; !strings.HasPrefix(r.Stderr, want) || !strings.Contains(r.Stderr, "("+e.ScopeFile("user")+":1:17)") || r.Stdout != "" {
		t.Errorf("got %s\nwant stderr starting %q and no report", r, want)
	}
	if got := e.ReadFile(e.ScopeFile("user")); got != broken {
		t.Errorf("the broken file was changed: %q", got)
	}
}

// TestImportNotesServersThatWillNotRun: an imported server that managed
// policy blocks (or that managed-mcp.json hides) carries a note saying so.
func TestImportNotesServersThatWillNotRun(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "claude-desktop/claude_desktop_config.json", filepath.Join(e.Config, "Claude", "claude_desktop_config.json"))
	e.WriteFile(filepath.Join(e.Managed, "managed-settings.json"), `{"deniedMcpServers": [{"serverUrl": "https://docs.example.com/*"}]}`)
	_, _, doc := importJSON(e, "--from", "claude-desktop")
	notes := map[string][]string{}
	for _, s := range doc.Servers {
		notes[s.Name] = s.Notes
	}
	if want := `managed policy blocks it (deniedMcpServers: serverUrl "https://docs.example.com/*"), so it will not run`; len(notes["docs"]) != 1 || notes["docs"][0] != want {
		t.Errorf("docs notes = %q, want [%q]", notes["docs"], want)
	}
	if len(notes["github"]) != 0 {
		t.Errorf("github notes = %q, want none", notes["github"])
	}

	f := clitest.NewEnv(t)
	placeFixture(f, "claude-desktop/claude_desktop_config.json", filepath.Join(f.Config, "Claude", "claude_desktop_config.json"))
	f.WriteFile(filepath.Join(f.Managed, "managed-mcp.json"), `{"mcpServers": {}}`)
	r := f.OK("mcp", "import", "--from", "claude-desktop")
	if !strings.Contains(r.Stdout, "✓ github: imported") || !strings.Contains(r.Stdout, "note: managed-mcp.json is in effect") {
		t.Errorf("import under managed-mcp.json:\n%s", r)
	}
}

// TestImportClaudeCodeKeepsEachServersScope: without -s, Claude Code's
// user servers (~/.claude.json mcpServers) go to your user scope and its
// servers for this project to local, and the report says which, also for
// a name in both (each scope gets its own, and the report says which wins
// here); the servers of .mcp.json, which mcpdeck reads itself as its
// project scope, are reported once as already there, not one by one as
// skipped. Imported again, each is skipped naming the scope it is in.
func TestImportClaudeCodeKeepsEachServersScope(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	placeFixture(e, "claude-code/claude.json", filepath.Join(e.Home, ".claude.json"))
	placeFixture(e, "claude-code/mcp.json", filepath.Join(e.Proj, ".mcp.json"))
	r := e.OK("mcp", "import", "--from", "claude-code")
	for _, want := range []string{
		"  ✓ shared: imported into your local scope (stdio, from " + filepath.Join(e.Home, ".claude.json") + ", local (" + e.Proj + "))\n",
		"  ✓ sentry: imported into your user scope (http, from " + filepath.Join(e.Home, ".claude.json") + ", user)\n",
		"  ✓ shared: imported into your user scope (stdio, from " + filepath.Join(e.Home, ".claude.json") + ", user)\n" +
			"      note: where both apply, the local scope's shared, imported above, takes precedence over it\n",
		"  = " + filepath.Join(e.Proj, ".mcp.json") + " is a file mcpdeck reads itself; already yours: db\n",
		"Imported 3, skipped 0, not converted 1; 1 already in mcpdeck.\n",
		"Project server db runs only once approved: mcpdeck mcp approve db\n", // db is not approved yet
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the report lacks %q:\n%s", want, r.Stdout)
		}
	}
	if strings.Contains(r.Stdout, "db: skipped") {
		t.Errorf(".mcp.json's server listed as skipped:\n%s", r.Stdout)
	}
	if s := e.Get("sentry"); s.Scope != "user" {
		t.Errorf("sentry (a Claude Code user server) went to %s", s.Scope)
	}
	if s := e.Get("shared"); s.Scope != "local" || s.Command != "local-version" {
		t.Errorf("shared (this project's) = %+v", s)
	}
	if user := e.ReadFile(e.ScopeFile("user")); !strings.Contains(user, `"user-version"`) {
		t.Errorf("Claude Code's user server shared is not in your user scope:\n%s", user)
	}
	again := e.OK("mcp", "import", "--from", "claude-code")
	for _, want := range []string{
		"  - shared: skipped: a server named shared already exists in the local scope (" + e.ScopeFile("local") + ")\n",
		"  - shared: skipped: a server named shared already exists in the user scope (" + e.ScopeFile("user") + ")\n",
	} {
		if !strings.Contains(again.Stdout, want) {
			t.Errorf("imported again, the report lacks %q:\n%s", want, again.Stdout)
		}
	}
	_, _, doc := importJSON(e, "--from", "claude-code")
	for _, s := range doc.Servers {
		if s.Name == "db" && s.Status != "present" {
			t.Errorf("db: status %s, want present", s.Status)
		}
	}
}
