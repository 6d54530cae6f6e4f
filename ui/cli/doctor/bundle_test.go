package doctor

import (
	"bytes"
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/faultlaunch"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// TestDoctorBundleMasksEverySecret plants a secret everywhere one can be —
// a stdio server's env value (which it prints on stderr and puts in a
// tool's description, so it travels in a tools/list result), a header
// value, a URL's query value and user info, an OAuth access and refresh
// token stored in the credentials file (the remote server echoes the
// access token it was sent into its initialize result), and a stored
// client secret a server prints on stderr (from a file it reads) — runs `doctor --bundle` against
// the real servers, extracts the archive and looks for every secret in
// every file: none may be there. The masked places read ****, the bundle
// holds what it promises, and it is never written over a file or through
// a symbolic link.
func TestDoctorBundleMasksEverySecret(t *testing.T) {
	e := clitest.NewEnv(t)
	fault := clitest.BuildFaultServer(t, t.TempDir())
	remote, _ := faultlaunch.Start(t, fault, "-http", "-leak-auth")
	u, err := url.Parse(remote)
	if err != nil {
		t.Fatal(err)
	}
	secrets := map[string]string{
		"env":      "env-secret-4f1a9c3e7b",
		"header":   "hdr-secret-8e2d5b1a6c",
		"query":    "qry-secret-3c7e9a1f5d",
		"userinfo": "usr-secret-6b4f2e8d1a",
		"token":    "stored-oauth-token-9d3b7f1e2c",
		"refresh":  "stored-refresh-5a8c2e4f7b",
		"client":   "client-secret-2f6d9b3e8a",
	}
	settings := filepath.Join(e.Config, "mcpdeck", "settings.json")
	leaked := filepath.Join(t.TempDir(), "leaked.txt") // a server that logs a file holding the client secret
	const unknown = "zq8Xw2Lp9Rt4Vb7Nm3Kc6Hd1"         // a key mcpdeck was never given: kept, and said so
	if err := os.WriteFile(leaked, []byte("client secret is "+secrets["client"]+"\nother key "+unknown), 0o600); err != nil {
		t.Fatal(err)
	}
	cfg, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{
		"local": map[string]any{
			"command": fault, "args": []string{"-leak-env", "API_KEY", "-stderr-file", leaked},
			"env": map[string]string{"API_KEY": secrets["env"]},
		},
		"remote": map[string]any{
			"type": "http", "url": "http://me:" + secrets["userinfo"] + "@" + u.Host + "/mcp?api_key=" + secrets["query"],
			"headers": map[string]string{"X-Api-Key": secrets["header"]},
		},
	}})
	e.WriteFile(settings, string(cfg))
	res, err := config.Load(e.LoadOptions())
	if err != nil {
		t.Fatal(err)
	}
	stored := map[string]string{}
	for _, s := range res.Servers {
		key := func(kind string) string { return s.Name + "@" + s.Hash[:16] + "/" + kind } // oauth's storeKey
		switch s.Name {
		case "remote":
			tok, _ := json.Marshal(map[string]string{"access_token": secrets["token"], "refresh_token": secrets["refresh"], "token_type": "Bearer"})
			stored[key("token")] = string(tok)
		case "local":
			stored[key("client-secret")] = secrets["client"]
		}
	}
	creds, _ := json.Marshal(stored)
	if err := os.WriteFile(filepath.Join(e.Config, "mcpdeck", "credentials.json"), creds, 0o600); err != nil {
		t.Fatal(err)
	}

	out := filepath.Join(t.TempDir(), "bundle.tar.gz")
	r := e.Run("doctor", "--bundle", out)
	if r.Code > 1 || !strings.Contains(r.Stdout, "bundle: wrote "+out) || !strings.Contains(r.Stdout, "bundle: masked ") {
		t.Fatalf("no bundle written: %s", r)
	}
	if st, err := os.Stat(out); err != nil || (runtime.GOOS != "windows" && st.Mode().Perm() != 0o600) {
		t.Fatalf("bundle file: %v %v", st, err)
	}
	files := clitest.ReadBundle(t, out)
	for name, body := range files {
		for what, s := range secrets {
			for _, form := range []string{s, url.QueryEscape(s)} {
				if strings.Contains(body, form) {
					t.Errorf("the %s secret is in %s:\n%s", what, name, body)
				}
			}
		}
	}
	for what, s := range secrets {
		if strings.Contains(r.Stdout+r.Stderr, s) {
			t.Errorf("the %s secret was printed:\n%s", what, r)
		}
	}

	for name, want := range map[string][]string{
		"version.txt":   {"mcpdeck ", "os/arch " + runtime.GOOS + "/" + runtime.GOARCH},
		"doctor.txt":    {"server local", "server remote", "keychain: "},
		"config.json":   {settings, `"scope": "user"`, `"API_KEY": "****"`, `"X-Api-Key": "****"`, "me:****@", "api_key=****"},
		"REDACTION.txt": {"mcpdeck masked ", "API_KEY=...", "stderr.txt: 1 line with a long mix of letters and digits"},
	} {
		for _, w := range want {
			if !strings.Contains(files[name], w) {
				t.Errorf("%s lacks %q:\n%s", name, w, files[name])
			}
		}
	}
	for _, c := range []struct{ server, file, want string }{
		{"local", "stderr.txt", "starting; API_KEY is ****"},
		{"local", "stderr.txt", "client secret is ****"},
		{"local", "traffic.jsonl", "uses key ****"},
		{"local", "traffic.jsonl", `"method":"tools/list"`},
		{"local", "state.json", `"history"`},
		{"remote", "traffic.jsonl", "signed in with ****"},
		{"remote", "state.json", `"state": "connected"`},
	} {
		if body := clitest.FileLike(t, files, "servers/", "-"+c.server+"/"+c.file); !strings.Contains(body, c.want) {
			t.Errorf("%s's %s lacks %q:\n%s", c.server, c.file, c.want, body)
		}
	}

	if !strings.Contains(r.Stdout, "bundle: kept unchanged") || !strings.Contains(r.Stdout, "-local/stderr.txt: 1 line with a long mix") ||
		strings.Count(r.Stdout, "long mix") != 1 || !strings.Contains(clitest.FileLike(t, files, "servers/", "-local/stderr.txt"), unknown) {
		t.Errorf("the one key mcpdeck could not judge is not named, alone, as kept:\n%s", r.Stdout)
	}
	before, _ := os.ReadFile(out)
	r = e.Run("doctor", "--bundle", out)
	if r.Code != 1 || !strings.Contains(r.Stderr, "exists") {
		t.Errorf("an existing bundle was not refused: %s", r)
	}
	if r.Stdout != "" {
		t.Errorf("the checks ran (seconds of them) before the bundle was refused:\n%s", r.Stdout)
	}
	if after, _ := os.ReadFile(out); !bytes.Equal(before, after) {
		t.Error("the existing bundle was changed")
	}
	clitest.RefusesLink(t, e, "doctor", "--bundle", clitest.LinkArg)
}

// TestBundleTrafficMasksToolResults: a tools/call result that carries a
// stored token (opaque, in plain text and inside an escaped JSON string)
// and a tool argument carrying a client secret are masked in the bundle's
// traffic.jsonl, and the values masked when the frame was recorded count
// among the bundle's masked values.
func TestBundleTrafficMasksToolResults(t *testing.T) {
	const token, client = "opaque-stored-token-7c1d", "client-secret-q9w8e7"
	b := &bundle{mask: textsafe.NewMasker(token, client), judge: textsafe.NewTokenJudge()}
	b.addTraffic("servers/01-s/traffic.jsonl", "s", []engine.Frame{
		{
			Dir: engine.FrameSent, Kind: engine.FrameRequest, Method: "tools/call", ID: "3",
			Body: `{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"login","arguments":{"secret_ref":"` + client + `"}}}`,
		},
		{
			Dir: engine.FrameReceived, Kind: engine.FrameResponse, Method: "tools/call", ID: "3", Masked: 1,
			Body: `{"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"logged in as ` + token + `, {\"session\":\"` + token + `\",\"k\":\"****\"}"}]}}`,
		},
	})
	got := b.files[0].body
	if strings.Contains(got, token) || strings.Contains(got, client) || strings.Count(got, textsafe.Masked) != 4 {
		t.Fatalf("traffic not masked:\n%s", got)
	}
	if b.masked != 4 {
		t.Errorf("masked %d values, want 4 (3 now, 1 when recorded)", b.masked)
	}
}

// TestBundleFilesAreTerminalSafe: a --trace line, and the bundle's
// traffic.jsonl and JSON files, hold servers' text escaped as --json
// output is, so whoever prints one on a terminal cannot be driven by it.
func TestBundleFilesAreTerminalSafe(t *testing.T) {
	frame := engine.Frame{
		Dir: engine.FrameReceived, Kind: engine.FrameResponse, Method: "tools/call" + clitest.Hostile, ID: "1",
		Body: `{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"` + clitest.Hostile + `"}]}}`,
	}
	line, err := clicore.TraceJSON("s"+clitest.Hostile, frame)
	if err != nil {
		t.Fatal(err)
	}
	clitest.AssertTerminalSafe(t, "--trace line", string(line))
	b := &bundle{mask: textsafe.NewMasker(), judge: textsafe.NewTokenJudge()}
	b.addTraffic("servers/01-s/traffic.jsonl", "s", []engine.Frame{frame})
	b.addState("servers/01-s/state.json", engine.ServerSnapshot{Name: "s", Error: clitest.Hostile}, 1, 0)
	for _, f := range b.files {
		clitest.AssertTerminalSafe(t, f.name, f.body)
	}
}

// TestBundleJudgesOnlyOutsideText: what mcpdeck wrote itself — a version
// stamped from a git checkout (as `make install` builds it), the hashes it
// computed of each definition in the loaded config and in the engine's
// snapshot (also an approved hash the loaded config does not hold), the
// files and directories it read — is never listed as "could not judge";
// a key a server printed is, alone.
func TestBundleJudgesOnlyOutsideText(t *testing.T) {
	const (
		stamped  = "v0.0.0-20261125094618-ca7c7d2c4f0c+dirty (commit ca7c7d2c4f0c, 2026-11-25T09:46:18Z, with uncommitted changes) go1.26.8"
		hash     = "9f2c4e1a7b3d5f6e8a0c2b4d6f8e1a3c5b7d9f0e2a4c6b8d0f1e3a5c7b9d2f4e"
		approved = "1a3c5e7b9d2f4a6c8e0b1d3f5a7c9e2b4d6f8a0c1e3b5d7f9a2c4e6b8d0f1a3c"
		outside  = "zq8Xw2Lp9Rt4Vb7Nm3Kc6Hd1"
	)
	dir := filepath.Join(t.TempDir(), "Application Support", "mcpdeck-4f1a9c3e7b2d8e6a")
	srv := model.Server{Name: "local", Scope: model.ScopeUser, Source: filepath.Join(dir, "settings.json"), Hash: hash}
	res := &config.Resolved{ProjectRoot: dir, Files: []string{srv.Source}, Servers: []model.Server{srv}}
	snap := engine.ServerSnapshot{
		Name: "local", Source: srv.Source, Hash: hash, State: model.StateConnected,
		Approval:   model.Approval{Status: model.ApprovalApproved, ApprovedHash: approved},
		StderrTail: []string{"starting", "key " + outside},
	}
	b := assembleBundle(bundleInput{
		res: res, version: stamped, report: []docLine{{mark: docOK, text: "config: " + srv.Source + " parsed"}},
		run: doctorRun{snap: engine.Snapshot{Servers: []engine.ServerSnapshot{snap}}},
	}, nil, nil)
	files := map[string]string{}
	for _, f := range b.files {
		files[f.name] = f.body
	}
	for name, want := range map[string]string{"version.txt": "ca7c7d2c4f0c", "servers/01-local/state.json": approved, "config.json": hash} {
		if !strings.Contains(files[name], want) {
			t.Fatalf("%s lacks %q:\n%s", name, want, files[name])
		}
	}
	if len(b.unsure) != 1 || !strings.HasPrefix(b.unsure[0], bundleRoot+"servers/01-local/stderr.txt: 1 line") {
		t.Errorf("could not judge, want only the server's stderr line:\n%s", strings.Join(b.unsure, "\n"))
	}
}
