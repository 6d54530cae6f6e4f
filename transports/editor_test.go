package transports

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/testdata/fakeeditor/editorlaunch"
)

// startEditor runs the fake editor over transport ("ws" or "sse") with a
// workspace holding one file with a diagnostic.
func startEditor(t *testing.T, transport string) (*editorlaunch.Editor, string) {
	t.Helper()
	bin, err := editorBin.Path()
	if err != nil {
		t.Fatal(err)
	}
	ws := t.TempDir()
	if err := os.WriteFile(filepath.Join(ws, "main.go"), []byte("package main\n// ERROR: undefined: x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	return editorlaunch.Start(t, bin, "-dir", t.TempDir(), "-workspace", ws, "-transport", transport), ws
}

// wsIDE is the definition discovery makes for an editor on port.
func wsIDE(port int, token string) model.ServerConfig {
	ti := model.TransportWSIDE.Info()
	return model.ServerConfig{
		Type: ti.Name, URL: ti.Schemes[0] + "://127.0.0.1:" + strconv.Itoa(port),
		Headers: map[string]string{ti.TokenHeader: token},
	}
}

// TestWSIDEWithToken: ws-ide connects with the lock file's token in
// x-claude-code-ide-authorization and calls the editor's tools.
func TestWSIDEWithToken(t *testing.T) {
	ed, ws := startEditor(t, "ws")
	c := open(t, wsIDE(ed.Port, ed.Token), Options{})
	if c.Transport() != model.TransportWSIDE {
		t.Fatalf("transport %q", c.Transport())
	}
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	tools, err := c.Client().ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil || len(tools.Tools) != 5 {
		t.Fatalf("tools: %v, %v", tools, err)
	}
	if got := mustCall(t, c, "getDiagnostics", nil); !strings.Contains(got, platform.FileURI(filepath.Join(ws, "main.go"))) || !strings.Contains(got, "undefined: x") {
		t.Fatalf("getDiagnostics = %s", got)
	}
	if got := mustCall(t, c, "executeCode", map[string]any{"code": `print("hello")`}); got != "hello" {
		t.Fatalf("executeCode = %q", got)
	}
}

// TestWSIDEWrongToken: the editor refuses a token that is not its own;
// the error says so, is not "sign in" (ws-ide has none), and carries
// neither token.
func TestWSIDEWrongToken(t *testing.T) {
	ed, _ := startEditor(t, "ws")
	wrong := strings.Repeat("0", 32)
	for name, token := range map[string]string{"wrong": wrong, "none": ""} {
		_, err := NewFactory().Open(t.Context(), "ide", wsIDE(ed.Port, token), Options{})
		if !errors.Is(err, ErrEditorRefused) || Classify(err) != ClassTerminal || errors.Is(err, ErrAuthRequired) {
			t.Fatalf("%s token: %v (%v), want ErrEditorRefused, terminal", name, err, Classify(err))
		}
		h := Humanize(err)
		for _, s := range []string{err.Error(), h} {
			if strings.Contains(s, ed.Token) || strings.Contains(s, wrong) || strings.Contains(strings.ToLower(s), "log in") {
				t.Fatalf("%s token: error %q names a token or a sign-in", name, s)
			}
		}
		if !strings.Contains(h, "refused the token") {
			t.Fatalf("Humanize = %q", h)
		}
	}
}

// TestSSEIDE: sse-ide reaches an editor's SSE server with no token.
func TestSSEIDE(t *testing.T) {
	ed, _ := startEditor(t, "sse")
	ti := model.TransportSSEIDE.Info()
	c := open(t, model.ServerConfig{Type: ti.Name, URL: ti.Schemes[0] + "://127.0.0.1:" + strconv.Itoa(ed.Port) + "/sse"}, Options{})
	if got := mustCall(t, c, "executeCode", map[string]any{"code": `print("sse")`}); got != "sse" {
		t.Fatalf("executeCode = %q", got)
	}
}

// TestEditorTransportsLoopbackOnly: an editor transport whose URL names
// any host but loopback is refused before anything is dialed.
func TestEditorTransportsLoopbackOnly(t *testing.T) {
	for _, ti := range model.Transports() {
		if !ti.Editor {
			continue
		}
		for _, host := range []string{"192.0.2.1:9", "example.com:9", "127.0.0.1.nip.io:9", "[fe80::1%25lo]:9"} {
			cfg := model.ServerConfig{Type: ti.Name, URL: ti.Schemes[0] + "://" + host, Headers: map[string]string{"x": "secret-token-1234"}}
			_, err := NewFactory().Open(t.Context(), "ide", cfg, Options{})
			if !errors.Is(err, ErrNotLoopback) || Classify(err) != ClassTerminal {
				t.Errorf("%s to %s: %v, want ErrNotLoopback", ti.Name, host, err)
			}
		}
	}
}
