package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
)

// TestURLPathSecretIsMaskedEverywhere: a key that ${PATHKEY} puts into
// URL paths (a hosted endpoint such as https://host/api/${KEY}/mcp), into
// a stdio server's argument and into a command reaches no output. The
// servers echo it: one names the path it was reached at in its
// instructions, one prints its argument on stderr. A wrong path fails
// with an HTTP 404 naming the URL, an unreachable one with the
// transport's error, the commands are not found. `mcp list` (text, --json,
// --no-connect), `mcp get`, `call` (its errors, --log-level, --trace),
// `doctor` and every file of `doctor --bundle` hold none of it, and
// REDACTION.txt says it was masked. (Whether --log-level prints a log
// message sent just before the call's answer is a race the engine's test
// avoids.)
func TestURLPathSecretIsMaskedEverywhere(t *testing.T) {
	const key = "pk-path-7c1e9a3f5d"
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "PATHKEY="+key)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	remote, _ := faultlaunch.Start(t, fault, "-http", "-path", "/api/"+key+"/mcp", "-leak-path")
	u, err := url.Parse(remote)
	if err != nil {
		t.Fatal(err)
	}
	base := "http://" + u.Host + "/api/${PATHKEY}/"
	settings := filepath.Join(e.Config, "mcpdeck", "settings.json")
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"routed": map[string]any{"type": "http", "url": base + "mcp"},
		"wrong":  map[string]any{"type": "http", "url": base + "other"},
		"down":   map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/api/${PATHKEY}/mcp", clitest.ClosedPort(t))},
		"local":  map[string]any{"command": fault, "args": []string{"-say", "${PATHKEY}"}},
		"gone":   map[string]any{"command": "/nonexistent-${PATHKEY}/bin/srv"},
		"absent": map[string]any{"command": "nosuch-${PATHKEY}"},
	}})
	e.WriteFile(settings, string(cfg))
	trace := filepath.Join(t.TempDir(), "trace.jsonl")
	bundle := filepath.Join(t.TempDir(), "bundle.tar.gz")

	var seen strings.Builder // proof that the key was there to leak
	for _, args := range [][]string{
		{"mcp", "list"},
		{"--json", "mcp", "list"},
		{"mcp", "list", "--no-connect"},
		{"mcp", "get", "routed"},
		{"mcp", "get", "wrong"},
		{"mcp", "get", "gone"},
		{"--json", "mcp", "get", "down"},
		{"--trace", trace, "call", "routed", "echo", `{"text":"hi"}`},
		{"call", "wrong", "echo", `{"text":"hi"}`},
		{"call", "down", "echo", `{"text":"hi"}`},
		{"--log-level", "info", "call", "local", "log", `{"text":"the key is ` + key + `"}`},
		{"doctor"},
		{"doctor", "--bundle", bundle},
	} {
		r := e.Run(args...)
		seen.WriteString(r.Stdout + r.Stderr)
		if strings.Contains(r.Stdout+r.Stderr, key) {
			t.Errorf("mcpdeck %s shows the key:\n%s", strings.Join(args, " "), r)
		}
	}
	for _, want := range []string{"404", "connection refused", "served at /api/****/mcp", "saying ****", "/nonexistent-****/bin/srv", `"command": "nosuch-****"`} {
		if !strings.Contains(seen.String(), want) {
			t.Errorf("no output says %q: the servers did not echo the key, so the test proves nothing", want)
		}
	}

	raw, err := os.ReadFile(trace)
	if err != nil || strings.Contains(string(raw), key) || !strings.Contains(string(raw), `served at /api/****/mcp`) {
		t.Errorf("the trace (%v) holds the key or not its masked echo:\n%s", err, raw)
	}
	files := clitest.ReadBundle(t, bundle)
	for name, body := range files {
		if strings.Contains(body, key) || strings.Contains(body, url.PathEscape(key)) {
			t.Errorf("the bundle's %s holds the key:\n%s", name, body)
		}
	}
	for _, want := range []string{
		"server routed, url: the value of ${PATHKEY}, masked wherever it appeared",
		"server local, args[1]: the value of ${PATHKEY}, masked wherever it appeared",
	} {
		if !strings.Contains(files["REDACTION.txt"], want) {
			t.Errorf("REDACTION.txt lacks %q:\n%s", want, files["REDACTION.txt"])
		}
	}
	if state := clitest.FileLike(t, files, "servers/", "-wrong/state.json"); !strings.Contains(state, "/api/****/other") {
		t.Errorf("wrong's state.json does not name the masked URL:\n%s", state)
	}
}

// TestHarmlessVariablesAreNotMasked: ${HOME} in a URL's path is no
// secret: the error naming the URL shows the home directory as it is.
func TestHarmlessVariablesAreNotMasked(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"home": map[string]any{"type": "http", "url": fmt.Sprintf("http://127.0.0.1:%d/files${HOME}/mcp", clitest.ClosedPort(t))},
	}})
	r := e.Run("--mcp-config", string(cfg), "--json", "mcp", "list")
	inURL := (&url.URL{Path: "/files" + e.Home + "/mcp"}).EscapedPath() // the home path holds a space (clitest.NewEnv)
	if !strings.Contains(r.Stdout, inURL) || strings.Contains(r.Stdout, "/files****") {
		t.Errorf("the home directory in the URL was masked, or the error does not name it:\n%s", r)
	}
}

// TestLastErrorIsMaskedWithTheRunsSecrets: an error the command ends with
// that did not come through the engine — sign-in refusing metadata that
// names another resource, quoting the server's URL — is masked with the
// secret sets of the servers the command loaded.
func TestLastErrorIsMaskedWithTheRunsSecrets(t *testing.T) {
	const key = "pk-auth-2b7d9e4f1a"
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if strings.HasPrefix(r.URL.Path, "/.well-known/oauth-protected-resource") {
			w.Header().Set("Content-Type", "application/json")
			_, _ = io.WriteString(w, `{"resource":"https://elsewhere.example/mcp","authorization_servers":["`+srv.URL+`"]}`)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+srv.URL+`/.well-known/oauth-protected-resource/api/`+key+`/mcp"`)
		w.WriteHeader(http.StatusUnauthorized)
	}))
	t.Cleanup(srv.Close)
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "PATHKEY="+key)
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"api": map[string]any{"type": "http", "url": srv.URL + "/api/${PATHKEY}/mcp"},
	}})
	e.WriteFile(filepath.Join(e.Config, "mcpdeck", "settings.json"), string(cfg))
	r := e.Run("auth", "api")
	if r.Code == 0 || strings.Contains(r.Stdout+r.Stderr, key) || !strings.Contains(r.Stderr, "/api/****/mcp") {
		t.Errorf("auth's error quotes the key, or does not name the URL:\n%s", r)
	}
}
