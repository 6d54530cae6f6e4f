package doctor

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestDoctor: one line per finding — a broken config file with its place,
// each server's outcome, the clock of a host two remote servers share,
// 10 minutes off, once — each ✗ followed by what to do, and exit 1; a
// project server nobody approved is neither started nor contacted.
func TestDoctor(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	skewed := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Date", time.Now().Add(-10*time.Minute).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(skewed.Close)
	var repoHits atomic.Int64
	repo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		repoHits.Add(1)
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(repo.Close)
	user, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"ok":      map[string]any{"command": fault},
		"gone":    map[string]any{"command": "no-such-program-anywhere"},
		"skewed":  map[string]any{"type": "http", "url": skewed.URL + "/mcp"},
		"skewed2": map[string]any{"type": "http", "url": skewed.URL + "/other"},
	}})
	e.WriteFile(filepath.Join(e.Config, "mcpdeck", "settings.json"), string(user))
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), `{"mcpServers": {"repo": {"type": "http", "url": "`+repo.URL+`/mcp"}}}`)
	r := e.Run("doctor")
	if r.Code != 1 {
		t.Fatalf("exit %d, want 1\n%s", r.Code, r)
	}
	for _, want := range []string{
		"✓ config: " + filepath.Join(e.Config, "mcpdeck", "settings.json") + " parsed",
		"✓ server ok: ",
		"✗ server gone: no-such-program-anywhere (stdio) — failed: command \"no-such-program-anywhere\" not found on PATH",
		"✗ clock: this machine is 10m", "ahead of " + strings.TrimPrefix(skewed.URL, "http://") + " (its Date header; servers skewed, skewed2)",
		"keychain: ",
		"proxy: ",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("doctor says nothing like %q:\n%s", want, r.Stdout)
		}
	}
	if n := strings.Count(r.Stdout, " clock: "); n != 1 {
		t.Errorf("%d clock lines for one host, want 1:\n%s", n, r.Stdout)
	}
	everyFailureHasAFix(t, r.Stdout)
	if repoHits.Load() != 0 {
		t.Errorf("a project server awaiting approval was contacted %d times", repoHits.Load())
	}
	e.WriteFile(filepath.Join(e.Proj, ".mcp.json"), "{\n  \"mcpServers\": {,}\n}")
	r = e.Run("doctor")
	if r.Code != 1 || !strings.Contains(r.Stdout, "✗ config: ") || !strings.Contains(r.Stdout, ".mcp.json:2:") {
		t.Errorf("a broken .mcp.json is not named with its line:\n%s", r)
	}
	everyFailureHasAFix(t, r.Stdout)
}

// everyFailureHasAFix requires a "  fix: " line after each ✗ line.
func everyFailureHasAFix(t *testing.T, out string) {
	t.Helper()
	lines := strings.Split(out, "\n")
	for i, l := range lines {
		if strings.HasPrefix(l, "✗ ") && (i+1 == len(lines) || !strings.HasPrefix(lines[i+1], "  fix: ")) {
			t.Errorf("no fix after %q:\n%s", l, out)
		}
	}
}

// TestProxyLinesMaskCredentials: proxy variables are shown, their
// credentials masked.
func TestProxyLinesMaskCredentials(t *testing.T) {
	env := map[string]string{"HTTPS_PROXY": "http://me:s3cretpassw0rd@proxy:3128", "NO_PROXY": "localhost"}
	lines := proxyChecks(func(k string) string { return env[k] })
	if len(lines) != 1 || strings.Contains(lines[0].text, "s3cretpassw0rd") || !strings.Contains(lines[0].text, "proxy:3128") || !strings.Contains(lines[0].text, "NO_PROXY=localhost") {
		t.Fatalf("%+v", lines)
	}
}

// TestClockAsksTheOrigin: the clock of a host whose MCP endpoint answers
// HEAD with nothing (an SSE endpoint of the TypeScript SDK sends no header
// until the client gives up) is still checked, at the host's origin.
func TestClockAsksTheOrigin(t *testing.T) {
	e := clitest.NewEnv(t)
	sse := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodHead && r.URL.Path != "/" {
			<-r.Context().Done() // as Node does for HEAD on an event stream
			return
		}
		w.Header().Set("Date", time.Now().Add(-10*time.Minute).UTC().Format(http.TimeFormat))
		w.WriteHeader(http.StatusNotFound)
	}))
	t.Cleanup(sse.Close)
	e.WriteFile(filepath.Join(e.Config, "mcpdeck", "settings.json"), `{"mcpServers": {"events": {"type": "sse", "url": "`+sse.URL+`/sse"}}}`)
	r := e.Run("doctor")
	if want := "✗ clock: this machine is 10m"; !strings.Contains(r.Stdout, want) {
		t.Errorf("doctor says nothing like %q:\n%s", want, r)
	}
}
