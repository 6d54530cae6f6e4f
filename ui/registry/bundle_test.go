package registry

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/mcpbtest"
)

// zipEntry is one entry of a test bundle.
type zipEntry = mcpbtest.File

// makeZip builds a bundle of entries.
func makeZip(t *testing.T, entries ...zipEntry) []byte {
	t.Helper()
	b, err := mcpbtest.Zip(entries...)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// testManifest is a binary bundle whose command is server/run, with a
// secret, a list of directories and a plain setting.
const testManifest = `{"manifest_version":"0.3","name":"tiny","display_name":"Tiny \u001b[31mbundle","version":"1.0.0","description":"d","author":{"name":"Ann"},
	"server":{"type":"binary","entry_point":"server/run","mcp_config":{"command":"${__dirname}/server/run",
		"args":["--data","${__dirname}${/}data","${user_config.dirs}","--mode=${user_config.mode}","${user_config.unset}"],
		"env":{"API_KEY":"${user_config.api_key}","HOME_DOCS":"${DOCUMENTS}","EMPTY":"${user_config.unset}","LEVEL":"${user_config.level}"}}},
	"user_config":{
		"api_key":{"type":"string","title":"API key","description":"your key","sensitive":true,"required":true},
		"dirs":{"type":"directory","title":"Folders","description":"where","multiple":true,"default":["${HOME}/a","${HOME}/b"]},
		"mode":{"type":"string","title":"Mode","description":"how","default":"fast"},
		"unset":{"type":"string","title":"Unset","description":"never given"},
		"level":{"type":"number","title":"Level","description":"n","min":1,"max":5}}}`

// bundleServer serves body at /tiny.mcpb and returns the mcpb server.json
// pointing at it with sha (the body's own when "").
func bundleServer(t *testing.T, body []byte, sha string) Entry {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/tiny.mcpb" {
			http.NotFound(w, r)
			return
		}
		if r.URL.Query().Get("stream") != "" && len(body) > 0 { // no Content-Length
			_, _ = w.Write(body[:1])
			w.(http.Flusher).Flush()
			body = body[1:]
		}
		_, _ = w.Write(body)
	}))
	t.Cleanup(srv.Close)
	if sha == "" {
		sum := sha256.Sum256(body)
		sha = hex.EncodeToString(sum[:])
	}
	return entryOf(t, `{"name":"io.example/tiny","version":"1.0.0","packages":[{"registryType":"mcpb","identifier":"`+srv.URL+`/tiny.mcpb","version":"1.0.0","fileSha256":"`+sha+`","transport":{"type":"stdio"}}]}`)
}

// bundles is a Bundles for a test: its root, home and temporary directory
// (TMPDIR) are the test's own, so that what is left behind can be seen.
func testBundles(t *testing.T) Bundles {
	t.Helper()
	home := t.TempDir()
	t.Setenv("TMPDIR", t.TempDir())
	return Bundles{Root: filepath.Join(home, ".config", "mcpdeck", "bundles"), Home: home, Platform: "linux"}
}

// leftovers fails when a download or a bundle directory was left behind.
func leftovers(t *testing.T, bs Bundles) {
	t.Helper()
	if tmp, _ := os.ReadDir(os.TempDir()); len(tmp) > 0 {
		t.Errorf("left in the temporary directory: %v", tmp)
	}
	if _, err := os.Stat(bs.Root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was created: %v", bs.Root, err)
	}
}

func fetch(t *testing.T, bs Bundles, e Entry) (Plan, error) {
	t.Helper()
	p, err := NewPlan(e, "")
	if err != nil {
		t.Fatal(err)
	}
	if !p.NeedsBundle() {
		t.Fatal("an mcpb plan does not need its bundle")
	}
	return bs.Fetch(t.Context(), p)
}

// TestBundleFetchBuildUnpack: a bundle whose SHA-256 matches is read
// without writing anything under the bundles' root; its settings become
// fields in the manifest's order; the definition runs its command from its
// directory with ${__dirname}, the directories and the settings filled
// (the sensitive one as ${secret:API_KEY}, a list as one argument each, an
// unset one left out); Unpack writes it with its executable bits (and its
// command made executable) and a marker, and a second install reuses it.
func TestBundleFetchBuildUnpack(t *testing.T) {
	bs := testBundles(t)
	body := makeZip(t,
		zipEntry{Name: "manifest.json", Body: testManifest},
		zipEntry{Name: "server/", Mode: fs.ModeDir | 0o755},
		zipEntry{Name: "server/run", Body: "#!/bin/sh\n"}, // made on a system without modes: 0644
		zipEntry{Name: "server/helper", Body: "x", Mode: 0o755},
		zipEntry{Name: "data/readme.txt", Body: "hello"},
	)
	p, err := fetch(t, bs, bundleServer(t, body, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Bundle.Close() }()
	leftoversRoot(t, bs)
	var ids []string
	for _, f := range p.Fields {
		ids = append(ids, f.ID)
	}
	if strings.Join(ids, " ") != "user:api_key user:dirs user:mode user:unset user:level" {
		t.Errorf("fields %v", ids)
	}
	if d := p.Fields[1].Input.Default; d != filepath.Join(bs.Home, "a")+string(filepath.ListSeparator)+filepath.Join(bs.Home, "b") {
		t.Errorf("the folders' default %q", d)
	}
	if f := p.Fields[0]; !f.Input.IsSecret || !f.Input.IsRequired || f.Label() != "setting api_key" || f.Flag() != "--arg api_key='VALUE'" {
		t.Errorf("api_key field %+v", f)
	}
	dir := filepath.Join(bs.Root, "tiny@1.0.0-"+p.Bundle.SHA256[:12])
	if p.Bundle.Dir != dir || p.Bundle.Exec != "server/run" {
		t.Errorf("dir %s exec %s", p.Bundle.Dir, p.Bundle.Exec)
	}

	if _, _, err := p.Build(nil, SecretsInStore); err == nil || !strings.Contains(err.Error(), "setting api_key (give it with --arg api_key='VALUE')") {
		t.Errorf("without the key: %v", err)
	}
	if _, _, err := p.Build(map[string]string{"user:api_key": "k", "user:level": "9"}, SecretsInStore); err == nil || !strings.Contains(err.Error(), "setting level must be a number from 1 to 5, not 9") {
		t.Errorf("a level out of bounds: %v", err)
	}
	cfg, secrets, err := p.Build(map[string]string{"user:api_key": "key-0123456789"}, SecretsInStore)
	if err != nil {
		t.Fatal(err)
	}
	wantArgs := []string{"--data", dir + string(filepath.Separator) + "data", filepath.Join(bs.Home, "a"), filepath.Join(bs.Home, "b"), "--mode=fast"}
	if cfg.Command != filepath.Join(dir, "server", "run") || !reflect.DeepEqual(cfg.Args, wantArgs) || cfg.Cwd != dir {
		t.Errorf("command %s args %q cwd %s", cfg.Command, cfg.Args, cfg.Cwd)
	}
	if !reflect.DeepEqual(cfg.Env, map[string]string{"API_KEY": "${secret:API_KEY}", "HOME_DOCS": filepath.Join(bs.Home, "Documents")}) {
		t.Errorf("env %v", cfg.Env)
	}
	if !reflect.DeepEqual(secrets, []Secret{{Name: "API_KEY", Value: "key-0123456789", Field: "setting api_key"}}) {
		t.Errorf("secrets %+v", secrets)
	}
	if _, _, err := p.Build(map[string]string{"user:api_key": "k"}, SecretsFromEnv); err == nil || !strings.Contains(err.Error(), "add it to the user or local scope") {
		t.Errorf("for the shared project file: %v", err)
	}
	lines := strings.Join(p.BundleLines(), "\n")
	if !strings.Contains(lines, "Bundle   Tiny \x1b[31mbundle 1.0.0 by Ann") || !strings.Contains(lines, "unpacked into "+dir) {
		t.Errorf("bundle lines:\n%s", lines)
	}

	created, err := p.Bundle.Unpack()
	if err != nil || !created {
		t.Fatalf("unpack: %v %v", created, err)
	}
	if b, err := os.ReadFile(filepath.Join(dir, "data", "readme.txt")); err != nil || string(b) != "hello" {
		t.Errorf("readme: %q %v", b, err)
	}
	if runtime.GOOS != "windows" {
		for name, want := range map[string]fs.FileMode{"server/run": 0o755, "server/helper": 0o755, "data/readme.txt": 0o644} {
			if fi, err := os.Stat(filepath.Join(dir, name)); err != nil || fi.Mode().Perm() != want {
				t.Errorf("%s: %v %v, want %v", name, fi.Mode(), err, want)
			}
		}
	}
	if b, _ := os.ReadFile(filepath.Join(dir, markerName)); strings.TrimSpace(string(b)) != p.Bundle.SHA256 {
		t.Errorf("marker %q", b)
	}
	if err := p.Bundle.Close(); err != nil {
		t.Fatal(err)
	}

	// Installed again: the directory holds it already and is used as it is.
	q, err := fetch(t, bs, bundleServer(t, body, ""))
	if err != nil {
		t.Fatal(err)
	}
	if created, err := q.Bundle.Unpack(); err != nil || created || !q.Bundle.Reused {
		t.Errorf("again: created %v reused %v %v", created, q.Bundle.Reused, err)
	}
	if !strings.Contains(strings.Join(q.BundleLines(), "\n"), "already unpacked in "+dir) {
		t.Errorf("lines %q", q.BundleLines())
	}
	_ = q.Bundle.Close()
	if tmp, _ := os.ReadDir(os.TempDir()); len(tmp) > 0 {
		t.Errorf("downloads left behind: %v", tmp)
	}
	if entries, _ := os.ReadDir(bs.Root); len(entries) != 1 {
		t.Errorf("the root holds %v", entries)
	}
}

// leftoversRoot fails when anything was written under the bundles' root.
func leftoversRoot(t *testing.T, bs Bundles) {
	t.Helper()
	if _, err := os.Stat(bs.Root); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("%s was written before Unpack: %v", bs.Root, err)
	}
}

// TestBundleDirectoryIsNeverOverwritten: a directory of the bundle's name
// holding something else (no marker, or another SHA-256) is refused
// before the person is asked anything, and left as it was.
func TestBundleDirectoryIsNeverOverwritten(t *testing.T) {
	bs := testBundles(t)
	body := makeZip(t, zipEntry{Name: "manifest.json", Body: testManifest}, zipEntry{Name: "server/run", Body: "x"})
	e := bundleServer(t, body, "")
	sum := sha256.Sum256(body)
	dir := filepath.Join(bs.Root, "tiny@1.0.0-"+hex.EncodeToString(sum[:])[:12])
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, marker := range []string{"", strings.Repeat("0", 64)} {
		if marker != "" {
			if err := os.WriteFile(filepath.Join(dir, markerName), []byte(marker), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := fetch(t, bs, e); err == nil || !strings.Contains(err.Error(), "does not write over it") {
			t.Errorf("marker %q: %v", marker, err)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("the directory was changed: %v", entries)
	}
	if tmp, _ := os.ReadDir(os.TempDir()); len(tmp) > 0 {
		t.Errorf("downloads left behind: %v", tmp)
	}
}

// TestBundleTextCannotFormAReference: a manifest's "$" next to a
// setting's value cannot make a ${...} reference, whether the value is
// its default or typed by the person.
func TestBundleTextCannotFormAReference(t *testing.T) {
	bs := testBundles(t)
	body := makeZip(t, zipEntry{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node","args":["$${user_config.k}"]}}`,
		`,"user_config":{"k":{"type":"string","title":"t","description":"d","default":"{AWS_SECRET_ACCESS_KEY}"}}`)})
	p, err := fetch(t, bs, bundleServer(t, body, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Bundle.Close() }()
	for _, values := range []map[string]string{nil, {"user:k": "{AWS_SECRET_ACCESS_KEY}"}} {
		if _, _, err := p.Build(values, SecretsInStore); err == nil || !strings.Contains(err.Error(), "would read your environment") {
			t.Errorf("%v: %v", values, err)
		}
	}
	if cfg, _, err := p.Build(map[string]string{"user:k": "plain"}, SecretsInStore); err != nil || cfg.Args[0] != "$plain" {
		t.Errorf("a plain value: %v %v", cfg.Args, err)
	}
}

// TestInstallBundleTakesItsDirectoryBack: when the definition cannot be
// written (the name is taken), the directory this install unpacked is
// removed again; a directory that was there before is left.
func TestInstallBundleTakesItsDirectoryBack(t *testing.T) {
	bs := testBundles(t)
	opts := loadOptions(t)
	body := makeZip(t, zipEntry{Name: "manifest.json", Body: manifestWith(runServer, "")}, zipEntry{Name: "server/run", Body: "x"})
	cfg := model.ServerConfig{Command: "x"}
	if _, err := Install(t.Context(), opts, model.ScopeUser, "taken", cfg, nil, nil); err != nil {
		t.Fatal(err)
	}
	p, err := fetch(t, bs, bundleServer(t, body, ""))
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = p.Bundle.Close() }()
	if _, err := InstallBundle(t.Context(), opts, model.ScopeUser, "taken", cfg, nil, nil, p.Bundle); !errors.Is(err, model.ErrExists) {
		t.Fatalf("err %v", err)
	}
	if _, err := os.Stat(p.Bundle.Dir); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("the directory stayed: %v", err)
	}
	if _, err := InstallBundle(t.Context(), opts, model.ScopeUser, "mine", cfg, nil, nil, p.Bundle); err != nil {
		t.Fatal(err)
	}
	if _, err := InstallBundle(t.Context(), opts, model.ScopeUser, "taken", cfg, nil, nil, p.Bundle); !errors.Is(err, model.ErrExists) {
		t.Fatalf("again: %v", err)
	}
	if _, err := os.Stat(filepath.Join(p.Bundle.Dir, "server", "run")); err != nil {
		t.Errorf("a directory another server runs went: %v", err)
	}
}
