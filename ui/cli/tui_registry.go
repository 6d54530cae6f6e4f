package cli

import (
	"context"
	"sync"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/oauth"
	"github.com/mcpdeck/mcpdeck/ui/addserver"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/registrycmd"
	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// tuiRegistry is the TUI's + : the MCP Registry (MCPDECK_REGISTRY_URL),
// the person's config files and mcpdeck's secret store.
type tuiRegistry struct {
	client registry.Client
	opts   config.LoadOptions
	store  *oauth.SecretStore

	mu      sync.Mutex
	fetched []*registry.Bundle // downloads to remove when the TUI ends
}

var _ addserver.Registry = (*tuiRegistry)(nil)

// newTUIRegistry is the registry for the TUI on the person's configuration.
func newTUIRegistry(g *clicore.Globals, opts config.LoadOptions) *tuiRegistry {
	return &tuiRegistry{client: registrycmd.Client(), opts: opts, store: g.SecretStore(opts.ConfigDir)}
}

// Search lists the first page of servers matching query.
func (r *tuiRegistry) Search(ctx context.Context, query string) ([]registry.Entry, error) {
	p, err := r.client.Search(ctx, query, 50, "")
	return p.Servers, err
}

func (r *tuiRegistry) Pinned(ctx context.Context, name, version string) (registry.Entry, error) {
	return r.client.Pinned(ctx, name, version)
}

func (r *tuiRegistry) Target(scope model.Scope) (string, error) {
	return config.ScopePath(r.opts, scope)
}

// Fetch downloads and checks a plan's bundle, and keeps it on the list
// closeBundles empties when the TUI ends.
func (r *tuiRegistry) Fetch(ctx context.Context, plan registry.Plan) (registry.Plan, error) {
	got, err := registrycmd.BundleStore(r.opts).Fetch(ctx, plan)
	if err == nil {
		lock.With(&r.mu, func() { r.fetched = append(r.fetched, got.Bundle) })
	}
	return got, err
}

// closeBundles removes every bundle download still there: those the
// person left without installing.
func (r *tuiRegistry) closeBundles() {
	lock.With(&r.mu, func() {
		for _, bd := range r.fetched {
			_ = bd.Close()
		}
		r.fetched = nil
	})
}

func (r *tuiRegistry) Install(ctx context.Context, scope model.Scope, name string, cfg model.ServerConfig, secrets []registry.Secret, bundle *registry.Bundle) (string, error) {
	return registry.InstallBundle(ctx, r.opts, scope, name, cfg, secrets, r.store, bundle)
}
