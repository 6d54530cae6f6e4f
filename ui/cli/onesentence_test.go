package cli

import (
	"encoding/json"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestFailureIsOneSentenceEverywhere: a server that cannot be reached is
// worded the same, in one sentence, by mcp get, mcp list, doctor and call:
// the row's words, never mcp-go's or net/http's wrapping.
func TestFailureIsOneSentenceEverywhere(t *testing.T) {
	e := clitest.NewEnv(t)
	untrusted := httptest.NewUnstartedServer(http.NotFoundHandler())
	untrusted.Config.ErrorLog = log.New(io.Discard, "", 0) // the refused handshakes
	untrusted.StartTLS()
	defer untrusted.Close()
	down := fmt.Sprintf("127.0.0.1:%d", clitest.ClosedPort(t))
	raw, err := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"tls":  map[string]any{"type": "http", "url": untrusted.URL + "/mcp"},
		"down": map[string]any{"type": "http", "url": "http://" + down + "/mcp"},
	}})
	if err != nil {
		t.Fatal(err)
	}
	cfg := string(raw)
	sentence := map[string]string{
		"tls":  "the certificate of the server at " + untrusted.Listener.Addr().String() + " is not signed by an authority this machine trusts (self-signed?)",
		"down": "connection refused at " + down + ": is the server running?",
	}
	check := func(what string, r clitest.Result, names ...string) {
		t.Helper()
		out := r.Stdout + r.Stderr
		for _, n := range names {
			if !strings.Contains(out, sentence[n]) {
				t.Errorf("%s: no %q in\n%s", what, sentence[n], r)
			}
		}
		for _, w := range []string{"transport error", "failed to send request", `Post "`, "x509:"} {
			if strings.Contains(out, w) {
				t.Errorf("%s: %q in\n%s", what, w, r)
			}
		}
	}
	for n := range sentence {
		check("mcp get "+n, e.OK("--mcp-config", cfg, "mcp", "get", n), n)
		check("call "+n, e.Fails(1, "--mcp-config", cfg, "call", n, "x", "{}"), n)
	}
	for _, args := range [][]string{{"mcp", "list"}, {"doctor"}} {
		r := e.Run(append([]string{"--mcp-config", cfg}, args...)...)
		if r.Code != 1 {
			t.Errorf("%s: want exit 1, got %s", args, r)
		}
		check(strings.Join(args, " "), r, "tls", "down")
	}
}
