package registry

import (
	"archive/zip"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/policy"
	"github.com/mcpdeck/mcpdeck/transports"
)

// Bounds on one MCP bundle. A bundle carries its server's dependencies
// (node_modules, a Python environment), so it may be large, but not
// without end; a zip can claim anything, so these bound what it unpacks to.
const (
	maxBundleDownload = 256 << 20 // bytes of the .mcpb file
	maxBundleUnpacked = 1 << 30   // bytes of all its files together
	maxBundleFile     = 512 << 20 // bytes of one file
	maxBundleFiles    = 50_000    // entries
	bundleTimeout     = 10 * time.Minute
)

// markerName is the file mcpdeck writes into an unpacked bundle holding
// the SHA-256 it was verified against; a bundle may not ship one.
const markerName = ".mcpdeck-bundle"

// Limits bound one bundle; the zero value takes the defaults above.
type Limits struct {
	Download, Unpacked, File int64
	Files                    int
}

func (l Limits) orDefaults() Limits {
	if l.Download == 0 {
		l.Download = maxBundleDownload
	}
	if l.Unpacked == 0 {
		l.Unpacked = maxBundleUnpacked
	}
	if l.File == 0 {
		l.File = maxBundleFile
	}
	if l.Files == 0 {
		l.Files = maxBundleFiles
	}
	return l
}

// Bundles fetches MCP bundles (mcpb packages) and unpacks them, each into
// a directory of its own under Root.
type Bundles struct {
	Root   string       // <user config dir>/mcpdeck/bundles
	Home   string       // for ${HOME}, ${DESKTOP}, ${DOCUMENTS}, ${DOWNLOADS}
	HTTP   *http.Client // nil = a client that follows redirects to https only
	Limits Limits
	// Platform is the system a bundle must declare ("darwin", "win32",
	// "linux", as Node names them); "" = this one.
	Platform string
}

// Bundle is one downloaded bundle whose SHA-256 matched its package's
// fileSha256: a temporary file until Unpack writes it to Dir. Close
// removes the temporary file.
type Bundle struct {
	URL      string
	SHA256   string
	Dir      string // where it is, or will be, unpacked
	Reused   bool   // Dir already held it when it was fetched
	Manifest Manifest
	// Exec is the file inside the bundle its command runs (slash
	// separated, "" when the command is a program on PATH): made
	// executable when unpacked, whatever the zip said.
	Exec     string
	files    map[string]bool // the zip's regular files
	mu       sync.Mutex      // guards file: Close may come from another goroutine
	file     string
	limits   Limits
	home     string
	platform string
}

// Fetch downloads the bundle of plan p's mcpb package, checks its SHA-256
// against the package's fileSha256, checks every entry of the zip and
// reads its manifest, and returns p with the bundle and the fields its
// user_config asks for. Nothing is written under Root: Bundle.Unpack does
// that once the person has agreed. On error nothing is left behind.
func (bs Bundles) Fetch(ctx context.Context, p Plan) (Plan, error) {
	pk := p.Package
	if pk == nil || pk.RegistryType != "mcpb" {
		return p, errors.New("the plan installs no MCP bundle")
	}
	bd := &Bundle{URL: pk.Identifier, SHA256: strings.ToLower(pk.FileSHA256), limits: bs.Limits.orDefaults(), home: bs.Home, platform: bs.Platform}
	if bd.platform == "" {
		bd.platform = nodePlatform(runtime.GOOS)
	}
	version := pk.Version
	if version == "" {
		version = p.Entry.Version
	}
	bd.Dir = filepath.Join(bs.Root, LocalName(p.Entry.Name)+"@"+version+"-"+bd.SHA256[:12])
	if err := bs.download(ctx, bd); err != nil {
		return p, err
	}
	q, err := bd.read(p)
	if err != nil {
		_ = bd.Close()
		return p, err
	}
	return q, nil
}

// read checks the downloaded zip and its manifest, and plans with them.
func (bd *Bundle) read(p Plan) (Plan, error) {
	var err error
	if bd.Reused, err = bd.present(); err != nil {
		return p, err
	}
	zr, err := zip.OpenReader(bd.file)
	if err != nil {
		return p, fmt.Errorf("%w: the bundle %s is not a zip file: %w", ErrUnusable, bd.URL, err)
	}
	defer func() { _ = zr.Close() }()
	if bd.files, err = checkEntries(&zr.Reader, bd.limits); err != nil {
		return p, fmt.Errorf("%w: the bundle %s %w", ErrUnusable, bd.URL, err)
	}
	raw, err := readManifest(&zr.Reader)
	if err != nil {
		return p, fmt.Errorf("%w: the bundle %s %w", ErrUnusable, bd.URL, err)
	}
	if bd.Manifest, err = parseManifest(raw); err != nil {
		return p, err
	}
	return p.withBundle(bd)
}

// Close removes the downloaded file (the unpacked directory stays). It
// may be called more than once, from any goroutine.
func (bd *Bundle) Close() error {
	if bd == nil {
		return nil
	}
	var err error
	lock.With(&bd.mu, func() {
		if bd.file != "" {
			err = os.Remove(bd.file)
			bd.file = ""
		}
	})
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	return err
}

// download fetches bd.URL into a temporary file, bounded in size and
// time, and keeps it only if its SHA-256 is the one expected.
func (bs Bundles) download(ctx context.Context, bd *Bundle) error {
	ctx, cancel := context.WithTimeout(ctx, bundleTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, bd.URL, nil)
	if err != nil {
		return fmt.Errorf("%w: the bundle's URL: %w", ErrUnusable, err)
	}
	client := bs.HTTP
	if client == nil {
		client = &http.Client{CheckRedirect: checkBundleRedirect}
	}
	resp, err := client.Do(req)
	if err != nil {
		return fmt.Errorf("downloading the bundle %s: %w", bd.URL, err)
	}
	defer func() { _ = resp.Body.Close() }()
	limit := bd.limits.Download
	switch {
	case resp.StatusCode != http.StatusOK:
		return fmt.Errorf("downloading the bundle %s: the server answered HTTP %d", bd.URL, resp.StatusCode)
	case resp.ContentLength > limit:
		return fmt.Errorf("%w: the bundle %s is larger than %s", ErrUnusable, bd.URL, size(limit))
	}
	f, err := os.CreateTemp("", "mcpdeck-bundle-*.mcpb")
	if err != nil {
		return err
	}
	keep := false
	defer func() {
		if !keep {
			_ = f.Close()
			_ = os.Remove(f.Name())
		}
	}()
	h := sha256.New()
	n, err := io.Copy(io.MultiWriter(f, h), io.LimitReader(resp.Body, limit+1))
	switch {
	case err != nil:
		return fmt.Errorf("downloading the bundle %s: %w", bd.URL, err)
	case n > limit:
		return fmt.Errorf("%w: the bundle %s is larger than %s", ErrUnusable, bd.URL, size(limit))
	}
	if got := hex.EncodeToString(h.Sum(nil)); got != bd.SHA256 {
		return fmt.Errorf("%w: the bundle %s has the SHA-256 %s, not the %s its server.json gives (fileSha256); it was not unpacked", ErrUnusable, bd.URL, got, bd.SHA256)
	}
	if err := f.Close(); err != nil {
		return err
	}
	keep, bd.file = true, f.Name()
	return nil
}

// checkBundleRedirect follows a download's redirect (release assets live
// on another host) only to https, or to plain http on a loopback host.
func checkBundleRedirect(req *http.Request, via []*http.Request) error {
	if len(via) >= 10 {
		return errors.New("stopped after 10 redirects")
	}
	return checkBundleURL(req.URL)
}

// checkBundleURL allows https, and plain http only to this machine.
func checkBundleURL(u *url.URL) error {
	switch {
	case u.User != nil:
		return errors.New("the bundle's URL carries credentials")
	case u.Scheme == "https" && u.Host != "":
		return nil
	case u.Scheme == "http" && policy.IsLoopbackHost(u.Hostname()):
		return nil
	}
	return fmt.Errorf("the bundle's URL %s is not https", u.Redacted())
}

// nodePlatform is what Node's process.platform says on goos, the names a
// manifest's compatibility.platforms uses.
func nodePlatform(goos string) string {
	if goos == "windows" {
		return "win32"
	}
	return goos
}

// size words a byte count as limits are spoken of.
func size(n int64) string { return transports.FormatSize(int(n)) }
