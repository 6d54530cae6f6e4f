package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// fakeRegistry is a Registry over the fake registry's documents that
// records what it was asked to install.
type fakeRegistry struct {
	entries []registry.Entry
	fail    error
	// bundles are the .mcpb files Fetch downloads, by URL, through an
	// in-memory transport into root.
	bundles map[string][]byte
	root    string

	mu        sync.Mutex
	queries   []string
	installed []fakeInstall
	fetched   []*registry.Bundle
}

type fakeInstall struct {
	scope   model.Scope
	name    string
	cfg     model.ServerConfig
	secrets []registry.Secret
	bundle  *registry.Bundle
}

func newFakeRegistry(t *testing.T, extra ...string) *fakeRegistry {
	r := &fakeRegistry{}
	for _, doc := range append(append([]string(nil), fakeregistry.Servers...), extra...) {
		var e registry.Entry
		if err := json.Unmarshal([]byte(doc), &e); err != nil {
			t.Fatal(err)
		}
		r.entries = append(r.entries, e)
	}
	return r
}

func (r *fakeRegistry) Search(_ context.Context, q string) ([]registry.Entry, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.queries = append(r.queries, q)
	out := []registry.Entry{}
	for _, e := range r.entries {
		if strings.Contains(strings.ToLower(e.Name+" "+e.Description), strings.ToLower(q)) {
			out = append(out, e)
		}
	}
	return out, nil
}

func (r *fakeRegistry) Pinned(_ context.Context, name, version string) (registry.Entry, error) {
	for _, e := range r.entries {
		if e.Name == name && e.Version == version {
			return e, nil
		}
	}
	return registry.Entry{}, registry.ErrNotFound
}

func (r *fakeRegistry) Target(s model.Scope) (string, error) {
	return "/cfg/" + s.String() + ".json", nil
}

func (r *fakeRegistry) Fetch(ctx context.Context, p registry.Plan) (registry.Plan, error) {
	serve := func(req *http.Request) (*http.Response, error) {
		b, ok := r.bundles[req.URL.String()]
		if !ok {
			return &http.Response{StatusCode: http.StatusNotFound, Body: io.NopCloser(strings.NewReader("")), Request: req}, nil
		}
		return &http.Response{StatusCode: http.StatusOK, ContentLength: int64(len(b)), Body: io.NopCloser(bytes.NewReader(b)), Request: req}, nil
	}
	bs := registry.Bundles{Root: r.root, Home: r.root, HTTP: &http.Client{Transport: roundTrip(serve)}}
	got, err := bs.Fetch(ctx, p)
	r.mu.Lock()
	defer r.mu.Unlock()
	r.fetched = append(r.fetched, got.Bundle)
	return got, err
}

// roundTrip is an http.RoundTripper that is a function.
type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(req *http.Request) (*http.Response, error) { return f(req) }

func (r *fakeRegistry) Install(_ context.Context, s model.Scope, name string, cfg model.ServerConfig, secrets []registry.Secret, bundle *registry.Bundle) (string, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.fail != nil {
		return "", r.fail
	}
	r.installed = append(r.installed, fakeInstall{s, name, cfg, secrets, bundle})
	return "/cfg/" + s.String() + ".json", nil
}

// TestAddFromRegistry drives + from the server list to a written server:
// search, the server's summary (golden), its fields in a form (the secret
// typed hidden), the definition shown before writing, then the install
// and a reload in Cmds. A failed install says why and stays.
func TestAddFromRegistry(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		reg := newFakeRegistry(t)
		h.m.env.reg = reg
		h.wantView("+ add from MCP Registry")

		h.keys("+")
		h.wantView("Add a server from the MCP Registry", "search:", "enter search")
		h.keys("every", "enter")
		h.wantView("› io.github.modelcontextprotocol/server-everything  2026.8.31  [npm]", "Everything — MCP server that exercises")
		if len(reg.queries) != 1 || reg.queries[0] != "every" {
			t.Fatalf("queries %v", reg.queries)
		}
		h.keys("enter")
		h.wantView("Runs      npx @modelcontextprotocol/server-everything@2026.8.31 (npm package)",
			"Asks for  argument transport (required), env EVERYTHING_TOKEN (required, secret), env", "EVERYTHING_LABEL",
			"Saves to  the user scope (/cfg/user.json)")
		golden(t, "registry_summary", h.view())
		h.keys("s")
		h.wantView("Saves to  the local scope (/cfg/local.json)")
		h.keys("s", "enter")

		h.wantView("Add io.github.modelcontextprotocol/server-everything", "server name *", "env EVERYTHING_TOKEN *", "(secret, kept in your keychain)")
		secret := "tok-secret-0123456789"
		h.keys("enter", "enter", secret)
		if strings.Contains(h.view(), secret) {
			t.Fatalf("the secret is shown as it is typed:\n%s", h.view())
		}
		h.keys("enter", "enter", "enter") // the label; the sandbox, pre-selected
		h.wantView("Add server-everything?", "stdio server server-everything, written to the user scope (/cfg/user.json):",
			"Command  npx -y @modelcontextprotocol/server-everything@2026.8.31 stdio",
			"Env      EVERYTHING_TOKEN=${secret:EVERYTHING_TOKEN}", "Sandbox  default profile · network registry.npmjs.org",
			"Secrets  EVERYTHING_TOKEN go to mcpdeck's secret store", "enter add")
		if strings.Contains(h.view(), secret) {
			t.Fatalf("the confirmation shows the secret:\n%s", h.view())
		}
		golden(t, "registry_confirm", h.view())

		reg.fail = errors.New("server server-everything is already defined in /cfg/user.json")
		h.keys("enter")
		h.wantView("✗ server server-everything is already defined")
		reg.fail = nil
		h.keys("enter")
		if len(reg.installed) != 1 {
			t.Fatalf("installed %+v", reg.installed)
		}
		in := reg.installed[0]
		if in.scope != model.ScopeUser || in.name != "server-everything" || in.cfg.Env["EVERYTHING_TOKEN"] != "${secret:EVERYTHING_TOKEN}" ||
			len(in.secrets) != 1 || in.secrets[0].Value != secret || in.cfg.Sandbox == nil {
			t.Errorf("installed %+v", in)
		}
		if got := h.eng.Actions(); len(got) == 0 || got[len(got)-1] != "reload " {
			t.Errorf("no reload after installing: %v", got)
		}
		if len(h.m.modals) != 0 {
			t.Errorf("modals left open: %d", len(h.m.modals))
		}
		h.wantView("added server-everything to the user scope (/cfg/user.json)")
	})
}

// TestAddFromRegistryRefusesAndEscapes: a server mcpdeck cannot install
// says why on its summary; esc walks back to the search and out; hostile
// titles are drawn inert; without a registry + says it is not available.
func TestAddFromRegistryRefusesAndEscapes(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc", "+")
		h.wantView("add from the MCP Registry: not available here")

		h.m.env.reg = newFakeRegistry(t,
			`{"name":"io.example/bundle","title":"\u001b]0;pwned\u0007Bundle\u202e","description":"\u001b[2Jgone","version":"1.0.0","packages":[{"registryType":"mcpb","identifier":"https://github.com/e/x/releases/download/v1/x.mcpb","fileSha256":"00"}]}`)
		h.keys("+", "bundle", "enter")
		v := h.view()
		if strings.ContainsAny(v, "\x1b\x07\u202e") || !strings.Contains(v, "Bundle — gone") {
			t.Fatalf("hostile title drawn raw:\n%q", v)
		}
		h.keys("enter")
		h.wantView("✗ cannot be installed: the bundle https://github.com/e/x/releases/download/v1/x.mcpb has the", `fileSha256 "00", not 64`, "esc back")
		h.keys("enter") // nothing to add
		h.wantView("mcpb")
		h.keys("esc")
		h.wantView("› io.example/bundle")
		h.keys("esc", "esc")
		if len(h.m.modals) != 0 {
			t.Fatalf("modals left open: %d", len(h.m.modals))
		}
	})
}

// TestRegistryScreensAreTerminalSafe renders the search, the summary, the
// form and a refusal with hostile text in every field a server.json
// brings (title, description, field descriptions, a package name).
func TestRegistryScreensAreTerminalSafe(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		h.m.env.reg = newFakeRegistry(t,
			`{"name":"io.example/hostile","title":"T`+jsonEsc(strings.ReplaceAll(hostile, "\n", ""))+`","description":"D`+jsonEsc(hostile)+`","version":"1.0.0","packages":[{"registryType":"npm","identifier":"hostile","version":"1.0.0","transport":{"type":"stdio"},
				"environmentVariables":[{"name":"K","description":"E`+jsonEsc(strings.ReplaceAll(hostile, "\n", ""))+`","isRequired":true}]}]}`,
			`{"name":"io.example/hostile-refused","description":"x","version":"1.0.0","packages":[{"registryType":"npm","identifier":"h`+jsonEsc(hostile)+`","version":"1.0.0"}]}`)
		check := func(what string) { t.Helper(); assertScreenSafe(t, what, h.view()) }
		h.keys("+", "hostile", "enter")
		check("registry search")
		h.keys("enter")
		check("registry summary")
		h.keys("enter")
		check("registry form")
		h.keys("esc", "esc", "down", "enter")
		check("registry refusal")
	})
}
