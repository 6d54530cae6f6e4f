package engine

import (
	"bytes"
	"encoding/json"
	"fmt"
	"log/slog"
	"strings"
	"testing"
	"testing/synctest"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// TestSnapshotShowsRedactedRaw checks that the snapshot shows the definition
// as written, redacted: ${VAR} references stay visible, literal secrets and
// the expanded values never appear.
func TestSnapshotShowsRedactedRaw(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := stdioServer("s")
		srv.Raw = model.ServerConfig{
			Command: "srv", Args: []string{"--api-key=literal-key", "--token", "${GITHUB_TOKEN}", "plain"},
			Env: map[string]string{"GITHUB_TOKEN": "${GITHUB_TOKEN}", "LIT": "literal-env"},
		}
		srv.Config = model.ServerConfig{
			Command: "srv", Args: []string{"--api-key=literal-key", "--token", "ghp_expanded", "plain"},
			Env: map[string]string{"GITHUB_TOKEN": "ghp_expanded", "LIT": "literal-env"},
		}
		e := newTestEngine(t, newFakeNet(), srv)
		mustStart(t, e)
		s := current(t, e, "s")
		all, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"ghp_expanded", "literal-key", "literal-env"} {
			if strings.Contains(string(all), secret) {
				t.Errorf("snapshot shows %q: %s", secret, all)
			}
		}
		if s.Config.Env["GITHUB_TOKEN"] != "${GITHUB_TOKEN}" || s.Config.Env["LIT"] != textsafe.Masked {
			t.Errorf("env = %v", s.Config.Env)
		}
		if want := "srv '--api-key=****' --token '${GITHUB_TOKEN}' plain"; s.Target != want { // each word as textsafe.QuoteArg shows it
			t.Errorf("target = %q, want %q", s.Target, want)
		}
	})
}

// TestSnapshotRedactsInjectedServers covers servers given through
// Options.Extra with only their expanded definition: still shown, still
// redacted.
func TestSnapshotRedactsInjectedServers(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := stdioServer("x")
		srv.Raw = model.ServerConfig{}
		srv.Config = model.ServerConfig{Command: "srv", Env: map[string]string{"KEY": "literal-secret"}}
		e := newTestEngine(t, newFakeNet(), srv)
		mustStart(t, e)
		s := current(t, e, "x")
		if s.Target != "srv" || s.Config.Env["KEY"] != textsafe.Masked {
			t.Errorf("target %q, env %v", s.Target, s.Config.Env)
		}
	})
}

// TestSnapshotErrorsShowNoSecrets checks the error text the TUI and mcp
// list show for a failed server: a transport error naming the URL with its
// credentials and echoing the configured header loses every secret, and
// still says what went wrong.
func TestSnapshotErrorsShowNoSecrets(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		const url = "http://user:pw-SECRET0@127.0.0.1:1/mcp?api_key=SECRET1-key&access_token=SECRET2-token"
		srv := stdioServer("remote")
		srv.Raw = model.ServerConfig{Type: model.TransportHTTP, URL: url, Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"}}
		srv.Config = model.ServerConfig{Type: model.TransportHTTP, URL: url, Headers: map[string]string{"Authorization": "Bearer SECRET3-bearer"}}
		n := newFakeNet()
		n.fail["remote"] = fmt.Errorf(`Post %q: server said "bad credentials SECRET3-bearer": connection refused`, url)
		e := newTestEngine(t, n, srv)
		var logged bytes.Buffer
		e.log = slog.New(slog.NewTextHandler(&logged, &slog.HandlerOptions{Level: slog.LevelDebug}))
		mustStart(t, e)
		s := current(t, e, "remote")
		all, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		for _, secret := range []string{"pw-SECRET0", "SECRET1-key", "SECRET2-token", "SECRET3-bearer"} {
			if strings.Contains(string(all), secret) {
				t.Errorf("snapshot shows %q: %s", secret, all)
			}
			if strings.Contains(logged.String(), secret) {
				t.Errorf("log shows %q: %s", secret, logged.String())
			}
		}
		if !strings.Contains(logged.String(), "server failed") {
			t.Errorf("the failure was not logged: %s", logged.String())
		}
		if s.State != model.StateFailed || !strings.Contains(s.Error, "connection refused") || !strings.Contains(s.ErrorDetail, "api_key=****") {
			t.Errorf("state %s, error %q, detail %q", s.State, s.Error, s.ErrorDetail)
		}
	})
}

// TestStoreSecretsAreMaskedInErrors: a value the definition took from
// mcpdeck's secret store is masked wherever an error quotes it, even as a
// positional argument, which nothing else would take for a secret.
func TestStoreSecretsAreMaskedInErrors(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		srv := stdioServer("local")
		srv.Raw = model.ServerConfig{Command: "srv", Args: []string{"${secret:TOKEN}"}}
		srv.Config = model.ServerConfig{Command: "srv", Args: []string{"store-SECRET4"}}
		srv.Expanded = []model.Expansion{{Field: "args[0]", Ref: "${secret:TOKEN}", Value: "store-SECRET4"}}
		n := newFakeNet()
		n.fail["local"] = fmt.Errorf("srv: unknown project store-SECRET4: exit status 2")
		e := newTestEngine(t, n, srv)
		mustStart(t, e)
		s := current(t, e, "local")
		all, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains(string(all), "store-SECRET4") || !strings.Contains(s.Error+s.ErrorDetail, "unknown project ****") {
			t.Errorf("error %q, detail %q, snapshot %s", s.Error, s.ErrorDetail, all)
		}
	})
}
