package registry

import (
	"slices"
	"strings"
	"testing"
)

// TestPackagesOfferTheSandbox: npm and PyPI packages come with the
// default sandbox pre-selected, reaching only their registry (npx and uvx
// fetch the package at each start); "none" declines it; an image or a
// remote is offered none. The plan's lines show it.
func TestPackagesOfferTheSandbox(t *testing.T) {
	every := fakeEntry(t, "io.github.modelcontextprotocol/server-everything")
	cfg, _ := build(t, every, "", map[string]string{"env:EVERYTHING_TOKEN": "x"}, SecretsInStore)
	if cfg.Sandbox == nil || cfg.Sandbox.Profile != "default" || !slices.Equal(cfg.Sandbox.Network.Hosts, []string{"registry.npmjs.org"}) {
		t.Fatalf("npm package: sandbox %+v", cfg.Sandbox)
	}
	if !slices.Contains(Lines(cfg), "Sandbox  default profile · network registry.npmjs.org") {
		t.Errorf("lines %q", Lines(cfg))
	}
	cfg, _ = build(t, every, "", map[string]string{"env:EVERYTHING_TOKEN": "x", SandboxFieldID: "none"}, SecretsInStore)
	if cfg.Sandbox != nil {
		t.Errorf("declined, yet sandbox %+v", cfg.Sandbox)
	}
	py := entryOf(t, `{"name":"io.example/py","version":"1.0.0","packages":[{"registryType":"pypi","identifier":"py-srv","version":"1.0.0"}]}`)
	cfg, _ = build(t, py, "", nil, SecretsInStore)
	if cfg.Sandbox == nil || strings.Join(cfg.Sandbox.Network.Hosts, " ") != "pypi.org files.pythonhosted.org" {
		t.Errorf("pypi package: sandbox %+v", cfg.Sandbox)
	}
	img := entryOf(t, `{"name":"io.example/img","version":"1.0.0","packages":[{"registryType":"oci","identifier":"example/img","version":"1.0.0"}]}`)
	p, err := NewPlan(img, "")
	if err != nil {
		t.Fatal(err)
	}
	if slices.ContainsFunc(p.Fields, func(f Field) bool { return f.Kind == FieldSandbox }) {
		t.Errorf("an image is offered a sandbox: %+v", p.Fields)
	}
}
