package mcpcmd_test

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/testdata/mcpbtest"
	"github.com/mcpdeck/mcpdeck/ui/cli"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// mcpbZip builds a .mcpb (a zip) holding files.
func mcpbZip(t *testing.T, files ...mcpbtest.File) []byte {
	t.Helper()
	b, err := mcpbtest.Zip(files...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// bundleHost serves .mcpb files over plain http on 127.0.0.1 (mcpdeck
// allows plain http to this machine only) and counts the downloads.
type bundleHost struct {
	srv   *httptest.Server
	files map[string][]byte
	gets  atomic.Int32
}

func newBundleHost(t *testing.T, files map[string][]byte) *bundleHost {
	h := &bundleHost{files: files}
	h.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h.gets.Add(1)
		b, ok := h.files[strings.TrimPrefix(r.URL.Path, "/")]
		if !ok {
			http.NotFound(w, r)
			return
		}
		_, _ = w.Write(b)
	}))
	t.Cleanup(h.srv.Close)
	return h
}

// serverJSON is the registry's document for the bundle file at host,
// claiming sha (the file's own when "").
func (h *bundleHost) serverJSON(name, file, sha string) string {
	if sha == "" {
		sum := sha256.Sum256(h.files[file])
		sha = hex.EncodeToString(sum[:])
	}
	return `{"name":"` + name + `","description":"a bundle","version":"1.0.0","packages":[{"registryType":"mcpb","identifier":"` +
		h.srv.URL + "/" + file + `","version":"1.0.0","fileSha256":"` + sha + `","transport":{"type":"stdio"}}]}`
}

// faultManifest runs the fault server it carries, with a sensitive
// setting as TOKEN, a plain one with a default as MODE, and
// ${__dirname} in an argument. Its display name is hostile.
const faultManifest = `{"manifest_version":"0.3","name":"fault","display_name":"Fault \u001b]0;pwned\u0007\u202eserver","version":"1.0.0",
	"description":"a fault server","author":{"name":"Tests"},
	"server":{"type":"binary","entry_point":"server/faultserver","mcp_config":{"command":"${__dirname}/server/faultserver",
		"args":["-stderr-file","${__dirname}/notes.txt"],"env":{"TOKEN":"${user_config.api_key}","MODE":"${user_config.mode}"}}},
	"user_config":{"api_key":{"type":"string","title":"API key","description":"the \u001b[31mkey","sensitive":true,"required":true},
		"mode":{"type":"string","title":"Mode","description":"how","default":"plain"}}}`

// TestRegistryAddBundleThenCall installs an MCP bundle built here (the
// fault server inside, its manifest asking for a secret) from the fake
// registry: mcp add shows the command in the bundle's directory, where the
// bundle comes from (its SHA-256) and where it is unpacked, with the
// manifest's words sanitized; the file holds ${secret:API_KEY} and the
// store the value; mcpdeck call runs the unpacked server, which gets the
// secret and runs in the bundle's directory. A second server from the
// same bundle reuses the directory; mcp remove says it stays.
func TestRegistryAddBundleThenCall(t *testing.T) {
	fault, err := os.ReadFile(clitest.BuildFaultServer(t, t.TempDir()))
	if err != nil {
		t.Fatal(err)
	}
	host := newBundleHost(t, map[string][]byte{"fault.mcpb": mcpbZip(t,
		mcpbtest.File{Name: "manifest.json", Body: faultManifest},
		mcpbtest.File{Name: "server/faultserver", Body: string(fault), Mode: 0o755},
		mcpbtest.File{Name: "notes.txt", Body: "notes from the bundle\n"},
	)})
	doc := host.serverJSON("io.example/fault", "fault.mcpb", "")
	m := clitest.NewRegistryMachine(t, cli.Run, doc)
	secret := "bundle-secret-0123456789"

	r := m.OK("mcp", "add", "-s", "user", "--registry", "io.example/fault", "--arg", "api_key="+secret)
	sum := sha256.Sum256(host.files["fault.mcpb"])
	sha := hex.EncodeToString(sum[:])
	dir := filepath.Join(m.Config, "mcpdeck", "bundles", "fault@1.0.0-"+sha[:12])
	for _, want := range []string{
		"io.example/fault 1.0.0 from the MCP Registry, as stdio server fault in the user scope",
		"Command  " + textsafe.QuoteArg(filepath.Join(dir, "server", "faultserver")) + " -stderr-file " + textsafe.QuoteArg(filepath.Join(dir, "notes.txt")),
		"Cwd      " + dir,
		"Env      TOKEN=${secret:API_KEY}",
		"Env      MODE=plain",
		"Bundle   Fault server 1.0.0 by Tests",
		"from " + host.srv.URL + "/fault.mcpb, SHA-256 " + sha + " checked",
		"unpacked into " + dir,
		"Stored API_KEY in mcpdeck's secret store",
		"Unpacked the bundle into " + dir + " (mcp remove leaves it there).",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("add: no %q in\n%s", want, r)
		}
	}
	if strings.ContainsAny(r.Stdout+r.Stderr, "\x1b\x07\u202e") {
		t.Errorf("the manifest's escapes reached the terminal: %q", r.Stdout)
	}
	if d := m.Definition("user", "fault"); d["command"] != filepath.Join(dir, "server", "faultserver") || d["cwd"] != dir ||
		d["env"].(map[string]any)["TOKEN"] != "${secret:API_KEY}" {
		t.Errorf("definition %v", d)
	}
	if got := m.Credentials()["secret:user::fault:API_KEY"]; got != secret {
		t.Errorf("stored %q", got)
	}

	r = m.OK("--json", "call", "fault", "env", `{"name":"TOKEN"}`)
	if !strings.Contains(r.Stdout, secret) {
		t.Errorf("the server did not get the stored secret:\n%s", r)
	}
	r = m.OK("--json", "call", "fault", "cwd", `{}`)
	if !strings.Contains(r.Stdout, dir) {
		t.Errorf("the server does not run in its bundle's directory:\n%s", r)
	}

	// The same bundle again, under another name: the directory is reused.
	r = m.OK("mcp", "add", "fault2", "-s", "user", "--registry", "io.example/fault", "--arg", "api_key="+secret)
	if !strings.Contains(r.Stdout, "already unpacked in "+dir+" (same SHA-256), used as it is") || strings.Contains(r.Stdout, "Unpacked the bundle") {
		t.Errorf("again:\n%s", r)
	}
	if host.gets.Load() != 2 {
		t.Errorf("%d downloads", host.gets.Load())
	}

	r = m.OK("mcp", "remove", "fault")
	if !strings.Contains(r.Stdout, "Its MCP bundle stays in "+dir) {
		t.Errorf("remove:\n%s", r)
	}
	if _, err := os.Stat(filepath.Join(dir, "server", "faultserver")); err != nil {
		t.Errorf("the bundle went: %v", err)
	}
	if strings.Count(m.All.String(), secret) != 1 { // the env tool's own answer, once
		t.Errorf("the secret was printed elsewhere:\n%s", m.All.String())
	}
	if strings.Contains(m.ReadFile(m.ScopeFile("user")), secret) {
		t.Error("the user file holds the secret")
	}
}

// TestRegistryAddBundleRefusals: a bundle whose SHA-256 is not the
// server.json's, and one whose zip would write outside its directory, are
// refused saying why, with nothing written: no definition, no bundle
// directory, no download left behind. The project's shared file is
// refused before anything is downloaded.
func TestRegistryAddBundleRefusals(t *testing.T) {
	manifest := mcpbtest.File{Name: "manifest.json", Body: `{"name":"x","version":"1.0.0","server":{"type":"node","mcp_config":{"command":"node","args":["${__dirname}/index.js"]}}}`}
	host := newBundleHost(t, map[string][]byte{
		"good.mcpb": mcpbZip(t, manifest, mcpbtest.File{Name: "index.js", Body: "//"}),
		"evil.mcpb": mcpbZip(t, manifest, mcpbtest.File{Name: "../../evil.js", Body: "//"}),
	})
	m := clitest.NewRegistryMachine(t, cli.Run,
		host.serverJSON("io.example/tampered", "good.mcpb", strings.Repeat("0", 64)),
		host.serverJSON("io.example/evil", "evil.mcpb", ""),
		host.serverJSON("io.example/good", "good.mcpb", ""),
	)
	t.Setenv("TMPDIR", t.TempDir())
	for name, want := range map[string]string{
		"io.example/tampered": "not the " + strings.Repeat("0", 64) + " its server.json gives (fileSha256); it was not unpacked",
		"io.example/evil":     `holds the entry "../../evil.js", which would land outside its directory`,
	} {
		r := m.RunInProcess("mcp", "add", "-s", "user", "--registry", name)
		if r.Code != clierr.ExitFailure || !strings.Contains(r.Stderr, name+"@1.0.0 cannot be installed: the bundle") || !strings.Contains(r.Stderr, want) {
			t.Errorf("%s: %s", name, r)
		}
	}
	gets := host.gets.Load()
	r := m.RunInProcess("mcp", "add", "-s", "project", "--registry", "io.example/good")
	if r.Code != clierr.ExitUsage || !strings.Contains(r.Stderr, "add it with -s user or -s local") || host.gets.Load() != gets {
		t.Errorf("the project file: %s (%d downloads)", r, host.gets.Load()-gets)
	}
	for _, scope := range []string{"user", "project"} {
		if _, err := os.Stat(m.ScopeFile(scope)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the %s file was written: %s", scope, m.ReadFile(m.ScopeFile(scope)))
		}
	}
	if _, err := os.Stat(filepath.Join(m.Config, "mcpdeck", "bundles")); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a bundle directory was made: %v", err)
	}
	if tmp, _ := os.ReadDir(os.TempDir()); len(tmp) > 0 {
		t.Errorf("downloads left behind: %v", tmp)
	}
}
