package registry

import (
	"archive/zip"
	"bytes"
	"compress/flate"
	"errors"
	"hash/crc32"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
)

// manifestWith is testManifest's shape with another server section and
// more fields.
func manifestWith(server, more string) string {
	return `{"manifest_version":"0.3","name":"tiny","version":"1.0.0","description":"d","author":{"name":"Ann"},"server":` + server + more + `}`
}

const runServer = `{"type":"binary","entry_point":"server/run","mcp_config":{"command":"${__dirname}/server/run"}}`

// TestHostileBundles: a bundle whose SHA-256 is not the server.json's,
// one too large, and one whose zip or manifest would write outside its
// directory, hold links or devices, unpack to too much, or put something
// into the definition a bundle may not (a ${...} reading the person's
// environment, control characters, a command it does not hold, another
// system) is refused saying why; nothing is left in the temporary
// directory and nothing is written under the bundles' root.
func TestHostileBundles(t *testing.T) {
	ok := zipEntry{Name: "manifest.json", Body: manifestWith(runServer, "")}
	run := zipEntry{Name: "server/run", Body: "x", Mode: 0o755}
	for _, c := range []struct {
		name    string
		entries []zipEntry
		sha     string
		limits  Limits
		want    string
	}{
		{name: "wrong sha", entries: []zipEntry{ok, run}, sha: strings.Repeat("ab", 32), want: "not the " + strings.Repeat("ab", 32) + " its server.json gives (fileSha256); it was not unpacked"},
		{name: "too large a download", entries: []zipEntry{ok, run, {Name: "big", Body: strings.Repeat("x", 4096)}}, limits: Limits{Download: 256}, want: "larger than 256 bytes"},
		{name: "not a zip", entries: nil, want: "is not a zip file"},
		{name: "climbs out", entries: []zipEntry{ok, run, {Name: "../evil", Body: "x"}}, want: `holds the entry "../evil", which would land outside its directory`},
		{name: "climbs out inside", entries: []zipEntry{ok, run, {Name: "server/../../evil", Body: "x"}}, want: "would land outside its directory"},
		{name: "absolute", entries: []zipEntry{ok, run, {Name: "/etc/cron.d/evil", Body: "x"}}, want: "an absolute path"},
		{name: "windows path", entries: []zipEntry{ok, run, {Name: `..\evil`, Body: "x"}}, want: "a backslash or a colon"},
		{name: "drive", entries: []zipEntry{ok, run, {Name: `C:/evil`, Body: "x"}}, want: "a backslash or a colon"},
		{name: "control character", entries: []zipEntry{ok, run, {Name: "a\x1b[2Jb", Body: "x"}}, want: "control character U+001B"},
		{name: "symlink", entries: []zipEntry{ok, run, {Name: "server/link", Body: "/etc/passwd", Mode: fs.ModeSymlink | 0o777}}, want: `holds "server/link", a symbolic link`},
		{name: "fifo", entries: []zipEntry{ok, run, {Name: "pipe", Mode: fs.ModeNamedPipe | 0o644}}, want: "neither a file nor a directory"},
		{name: "too large an entry", entries: []zipEntry{ok, run, {Name: "big", Body: strings.Repeat("x", 2048)}}, limits: Limits{File: 1024}, want: `holds "big", larger than 1 KB`},
		{name: "too much in all", entries: []zipEntry{ok, run, {Name: "a", Body: strings.Repeat("x", 700)}, {Name: "b", Body: strings.Repeat("x", 700)}}, limits: Limits{Unpacked: 1024 + int64(len(ok.Body))}, want: "unpacks to more than"},
		{name: "too many entries", entries: []zipEntry{ok, run, {Name: "a"}, {Name: "b"}}, limits: Limits{Files: 3}, want: "more than 3 entries"},
		{name: "a file twice", entries: []zipEntry{ok, run, {Name: "server/RUN", Body: "y"}}, want: `holds "server/RUN" twice`},
		{name: "the marker", entries: []zipEntry{ok, run, {Name: markerName, Body: strings.Repeat("0", 64)}}, want: "mcpdeck keeps for itself"},
		{name: "no manifest", entries: []zipEntry{run}, want: "has no manifest.json at its top"},
		{name: "manifest not JSON", entries: []zipEntry{{Name: "manifest.json", Body: "{"}, run}, want: "not the JSON of a manifest"},
		{name: "manifest too large", entries: []zipEntry{{Name: "manifest.json", Body: `{"x":"` + strings.Repeat("a", maxManifest) + `"}`}, run}, want: "manifest.json larger than 1 MB"},
		{name: "other systems", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(runServer, `,"compatibility":{"platforms":["darwin","win32"]}`)}, run}, want: "is for darwin, win32, not linux"},
		{name: "unknown type", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"ruby","mcp_config":{"command":"ruby"}}`, "")}}, want: `server type "ruby"`},
		{name: "no mcp_config", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"uv","entry_point":"src/server.py"}`, "")}}, want: "gives no mcp_config"},
		{name: "reads the environment", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node","env":{"K":"${AWS_SECRET_ACCESS_KEY}"}}}`, "")}}, want: "env K holds ${AWS_SECRET_ACCESS_KEY}, which mcpdeck would take from your environment"},
		{name: "reads the store", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node","args":["${secret:TOKEN}"]}}`, "")}}, want: "argument 1 holds ${secret:TOKEN}"},
		{name: "undeclared setting", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node","args":["${user_config.nope}"]}}`, "")}}, want: "holds ${user_config.nope}"},
		{name: "reference in a default", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node"}}`, `,"user_config":{"k":{"type":"string","title":"t","description":"d","default":"${GITHUB_TOKEN}"}}`)}}, want: "setting k holds ${GITHUB_TOKEN}"},
		{name: "escape in an argument", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node","args":["\u001b]0;pwned\u0007"]}}`, "")}}, want: "control character"},
		{name: "bad env name", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node","env":{"A B":"x"}}}`, "")}}, want: "not a valid name for an environment variable"},
		{name: "bad setting name", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node"}}`, `,"user_config":{"a}b":{"type":"string","title":"t","description":"d"}}`)}}, want: `a setting named "a}b"`},
		{name: "setting declared twice", entries: []zipEntry{{Name: "manifest.json", Body: manifestWith(`{"type":"node","mcp_config":{"command":"node"}}`, `,"user_config":{"k":{"type":"string"},"k":{"type":"string"}}`)}}, want: `"k" is declared twice`},
		{name: "command not in the bundle", entries: []zipEntry{ok}, want: "runs server/run, which it does not hold"},
	} {
		t.Run(c.name, func(t *testing.T) {
			bs := testBundles(t)
			bs.Limits = c.limits
			var body []byte
			if c.entries != nil {
				body = makeZip(t, c.entries...)
			} else {
				body = []byte("not a zip at all")
			}
			_, err := fetch(t, bs, bundleServer(t, body, c.sha))
			if !errors.Is(err, ErrUnusable) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
			leftovers(t, bs)
		})
	}
}

// TestStreamedDownloadIsBounded: a download that does not say its length
// is cut at the limit, and nothing of it stays.
func TestStreamedDownloadIsBounded(t *testing.T) {
	bs := testBundles(t)
	bs.Limits = Limits{Download: 256}
	e := bundleServer(t, makeZip(t, zipEntry{Name: "manifest.json", Body: manifestWith(runServer, "")}, zipEntry{Name: "server/run", Body: "x"}), "")
	e.Packages[0].Identifier += "?stream=1"
	if _, err := fetch(t, bs, e); err == nil || !strings.Contains(err.Error(), "larger than 256 bytes") {
		t.Fatalf("err %v", err)
	}
	leftovers(t, bs)
}

// TestUnpackCountsRealBytes: an entry that unpacks to more than it
// declares (a zip can claim anything) is stopped, and nothing of it stays
// under the bundles' root.
func TestUnpackCountsRealBytes(t *testing.T) {
	var raw bytes.Buffer
	fw, _ := flate.NewWriter(&raw, flate.BestCompression)
	data := bytes.Repeat([]byte("x"), 1<<20)
	_, _ = fw.Write(data)
	_ = fw.Close()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range []zipEntry{{Name: "manifest.json", Body: manifestWith(runServer, "")}, {Name: "server/run", Body: "x", Mode: 0o755}} {
		w, _ := zw.Create(e.Name)
		_, _ = w.Write([]byte(e.Body))
	}
	h := &zip.FileHeader{Name: "bomb", Method: zip.Deflate, CRC32: crc32.ChecksumIEEE(data), CompressedSize64: uint64(raw.Len()), UncompressedSize64: 10}
	w, err := zw.CreateRaw(h)
	if err != nil {
		t.Fatal(err)
	}
	_, _ = w.Write(raw.Bytes())
	_ = zw.Close()

	bs := testBundles(t)
	p, err := fetch(t, bs, bundleServer(t, buf.Bytes(), ""))
	if err != nil {
		t.Fatal(err) // it declares 10 bytes: nothing to refuse yet
	}
	defer func() { _ = p.Bundle.Close() }()
	if _, err := p.Bundle.Unpack(); err == nil || !strings.Contains(err.Error(), `"bomb"`) {
		t.Fatalf("unpack: %v", err)
	}
	if entries, _ := os.ReadDir(bs.Root); len(entries) != 0 {
		t.Errorf("left under the root: %v", entries)
	}
}

// TestBundleURLs: only https (or plain http to this machine) is
// downloaded, a redirect to plain http is not followed, and a package
// without a fileSha256, or one that is not a SHA-256, is refused before
// anything is downloaded.
func TestBundleURLs(t *testing.T) {
	pkg := func(fields string) string {
		return `{"name":"io.example/b","version":"1.0.0","packages":[{"registryType":"mcpb","transport":{"type":"stdio"},` + fields + `}]}`
	}
	sha := `"fileSha256":"` + strings.Repeat("a", 64) + `"`
	for _, c := range []struct{ name, doc, want string }{
		{"no sha", pkg(`"identifier":"https://github.com/e/x/releases/download/v1/x.mcpb","version":"1.0.0"`), "has no fileSha256"},
		{"short sha", pkg(`"identifier":"https://github.com/e/x/releases/download/v1/x.mcpb","version":"1.0.0","fileSha256":"00"`), `the fileSha256 "00", not 64 hexadecimal digits`},
		{"plain http", pkg(`"identifier":"http://example.com/x.mcpb","version":"1.0.0",` + sha), "is not https"},
		{"file", pkg(`"identifier":"file:///etc/passwd","version":"1.0.0",` + sha), "is not https"},
		{"credentials", pkg(`"identifier":"https://user:pw@example.com/x.mcpb","version":"1.0.0",` + sha), "carries credentials"},
		{"not a URL", pkg(`"identifier":"x.mcpb","version":"1.0.0",` + sha), "is not a URL"},
		{"unpinned", pkg(`"identifier":"https://example.com/x.mcpb","version":"latest",` + sha), `version "latest"`},
		{"runtime arguments", pkg(`"identifier":"https://example.com/x.mcpb","version":"1.0.0",` + sha + `,"runtimeArguments":[{"type":"positional","value":"-c"}]`), "has runtime arguments"},
		{"own port", `{"name":"io.example/b","version":"1.0.0","packages":[{"registryType":"mcpb","identifier":"https://example.com/x.mcpb",` + sha + `,"transport":{"type":"streamable-http","url":"http://localhost:1/mcp"}}]}`, "stdio only"},
	} {
		t.Run(c.name, func(t *testing.T) {
			if _, err := NewPlan(entryOf(t, c.doc), ""); !errors.Is(err, ErrUnusable) || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}

	// A package without a version of its own takes the server's.
	p, err := NewPlan(entryOf(t, pkg(`"identifier":"http://127.0.0.1:1/x.mcpb",`+sha)), "")
	if err != nil || !p.NeedsBundle() || p.Runs() != "the MCP bundle http://127.0.0.1:1/x.mcpb (mcpb, SHA-256 aaaaaaaaaaaa…)" {
		t.Fatalf("loopback http: %v %q", err, p.Runs())
	}

	bs := testBundles(t)
	srv := httptest.NewServer(http.RedirectHandler("http://mcpdeck.invalid/x.mcpb", http.StatusFound))
	defer srv.Close()
	p, err = NewPlan(entryOf(t, pkg(`"identifier":"`+srv.URL+`/x.mcpb",`+sha)), "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := bs.Fetch(t.Context(), p); err == nil || !strings.Contains(err.Error(), "http://mcpdeck.invalid/x.mcpb is not https") {
		t.Errorf("a redirect to plain http: %v", err)
	}
	leftovers(t, bs)
}

// TestChoosingABundleForThisSystem: among several bundles, one whose file
// name says it is for another system is passed over for one that does
// not; alone, it is still tried (its manifest decides).
func TestChoosingABundleForThisSystem(t *testing.T) {
	for _, c := range []struct {
		name, platform string
		other          bool
	}{
		{"x_0.1.0_darwin_universal.mcpb", "linux", true},
		{"x-windows-amd64.mcpb", "linux", true},
		{"x-linux-arm64.mcpb", "linux", false},
		{"x-macos.mcpb", "darwin", false},
		{"x-1.0.6.mcpb", "win32", false},
		{"winter-tools.mcpb", "linux", false},
	} {
		if got := forAnotherSystem("https://github.com/e/x/releases/download/v1/"+c.name, c.platform); got != c.other {
			t.Errorf("%s on %s: %v", c.name, c.platform, got)
		}
	}
	here := map[string]string{"darwin": "darwin", "windows": "windows", "linux": "linux"}[runtime.GOOS]
	if here == "" {
		t.Skip("no bundle names this system")
	}
	sha := strings.Repeat("a", 64)
	var pkgs []string
	for _, sys := range []string{"darwin", "windows", "linux"} {
		pkgs = append(pkgs, `{"registryType":"mcpb","identifier":"https://github.com/e/x/releases/download/v1/x-`+sys+`.mcpb","fileSha256":"`+sha+`","transport":{"type":"stdio"}}`)
	}
	p, err := NewPlan(entryOf(t, `{"name":"io.example/x","version":"1.0.0","packages":[`+strings.Join(pkgs, ",")+`]}`), "")
	if err != nil || !strings.HasSuffix(p.Package.Identifier, "x-"+here+".mcpb") {
		t.Errorf("chose %v %v", p.Package, err)
	}
	p, err = NewPlan(entryOf(t, `{"name":"io.example/x","version":"1.0.0","packages":[`+pkgs[0]+`]}`), "")
	if err != nil || p.Package == nil {
		t.Errorf("a lone bundle: %v", err)
	}
}
