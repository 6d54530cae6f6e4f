package ui

import (
	"crypto/sha256"
	"encoding/hex"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/testdata/mcpbtest"
)

// tinyBundle is a registry whose one extra server is an MCP bundle, with
// a sensitive setting described in hostile text; it returns the bundle's
// directory-to-be and its SHA-256.
func tinyBundle(t *testing.T) (*fakeRegistry, string, string) {
	t.Helper()
	body, err := mcpbtest.Zip(
		mcpbtest.File{Name: "manifest.json", Body: `{"manifest_version":"0.3","name":"tiny","display_name":"Tiny \u001b]0;pwned\u0007","version":"1.0.0","description":"d","author":{"name":"Ann"},
			"server":{"type":"node","entry_point":"server/index.js","mcp_config":{"command":"node","args":["${__dirname}/server/index.js"],"env":{"API_KEY":"${user_config.api_key}"}}},
			"user_config":{"api_key":{"type":"string","title":"API key","description":"the \u001b[31mkey\u202e","sensitive":true,"required":true}}}`},
		mcpbtest.File{Name: "server/index.js", Body: "//"},
	)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	sha := hex.EncodeToString(sum[:])
	url := "https://bundles.example/tiny.mcpb"
	reg := newFakeRegistry(t, `{"name":"io.example/tiny","description":"a bundle","version":"1.0.0","packages":[{"registryType":"mcpb","identifier":"`+url+`","version":"1.0.0","fileSha256":"`+sha+`","transport":{"type":"stdio"}}]}`)
	reg.bundles, reg.root = map[string][]byte{url: body}, t.TempDir()
	return reg, filepath.Join(reg.root, "tiny@1.0.0-"+sha[:12]), sha
}

// TestAddBundleFromRegistry: + on an MCP bundle says its settings come
// from its manifest; enter downloads and checks it in a Cmd, then asks for
// its settings in the same form as every other field (the secret hidden);
// the confirmation shows the command in the bundle's directory and where
// the bundle comes from and goes, the manifest's words inert; enter
// installs it with the bundle, whose download is then removed. Leaving
// after the download removes it too.
func TestAddBundleFromRegistry(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 160, 40)
		h.keys("esc")
		reg, dir, sha := tinyBundle(t)
		h.m.env.reg = reg

		h.keys("+", "tiny", "enter", "enter")
		h.wantView("Runs      the MCP bundle https://bundles.example/tiny.mcpb (mcpb, SHA-256 "+sha[:12]+"…)",
			"Asks for  what its manifest says, read once the bundle is downloaded (enter)")
		h.keys("enter")
		h.wantView("Add io.example/tiny", "setting api_key *", "(secret, kept in your keychain) API key: the key")
		assertScreenSafe(t, "bundle form", h.view())
		secret := "bundle-secret-0123456789"
		h.keys("enter", secret, "enter")
		if strings.Contains(h.view(), secret) {
			t.Fatalf("the secret is shown:\n%s", h.view())
		}
		h.wantView("Add tiny?", "Command  node "+textsafe.QuoteArg(filepath.Join(dir, "server", "index.js")), "Cwd      "+dir,
			"Env      API_KEY=${secret:API_KEY}", "Bundle   Tiny  1.0.0 by Ann", "SHA-256 "+sha+" checked", "unpacked into "+dir)
		assertScreenSafe(t, "bundle confirmation", h.view())
		h.keys("enter")
		if len(reg.installed) != 1 {
			t.Fatalf("installed %+v", reg.installed)
		}
		in := reg.installed[0]
		if in.bundle == nil || in.bundle.Dir != dir || in.cfg.Cwd != dir || in.cfg.Env["API_KEY"] != "${secret:API_KEY}" || len(in.secrets) != 1 || in.secrets[0].Value != secret {
			t.Errorf("installed %+v", in)
		}
		if _, err := in.bundle.Unpack(); err == nil || !strings.Contains(err.Error(), "already removed") {
			t.Errorf("the download outlived the install: %v", err)
		}

		// Downloaded, then left: the download goes.
		h.keys("+", "tiny", "enter", "enter", "enter")
		h.wantView("setting api_key *")
		h.keys("esc", "esc")
		h.wantView("› io.example/tiny")
		if bd := reg.fetched[len(reg.fetched)-1]; bd == nil {
			t.Fatal("no second download")
		} else if _, err := bd.Unpack(); err == nil || !strings.Contains(err.Error(), "already removed") {
			t.Errorf("the download outlived the summary: %v", err)
		}
		h.keys("esc", "esc")
	})
}
