package completion

import (
	"context"
	"slices"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/mcpdeck/mcpdeck/model/cache"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/form"
)

// completeConnectTimeout bounds the one connection completion may make:
// a TAB must answer quickly or not at all.
const completeConnectTimeout = 4 * time.Second

// serverNamesFor returns the tool, prompt and resource names of server for
// completion: from the cache while it is fresh, else by connecting that one
// server, and only when it may run (approved, enabled, allowed by policy,
// no config problems) — completion never starts what you have not approved.
func serverNamesFor(ctx context.Context, g *clicore.Globals, server string) (cache.ServerNames, bool) {
	res, err := clicore.LoadResolved(g)
	if err != nil {
		return cache.ServerNames{}, false
	}
	s, ok := res.Server(server)
	if !ok || !s.Runnable() {
		return cache.ServerNames{}, false
	}
	cacheDir := completionCacheDir()
	if n, ok := cache.ReadServerNames(cacheDir, s.Hash, time.Now()); ok {
		return n, true
	}
	if ctx == nil {
		ctx = context.Background()
	}
	ctx, cancel := context.WithTimeout(ctx, completeConnectTimeout)
	defer cancel()
	// A --trace on the line being completed is for the command once it
	// runs, not for this look-up: the file is left alone.
	g.TracePath = ""
	sess, err := clisession.StartSession(ctx, clisession.NewEngineFlags(g), server)
	if err != nil {
		return cache.ServerNames{}, false
	}
	defer sess.Close()
	srv, err := sess.Ready(ctx, server)
	if err != nil {
		return cache.ServerNames{}, false
	}
	n := cache.ServerNames{Hash: srv.Hash, At: time.Now()}
	for _, t := range srv.Tools {
		n.Tools = append(n.Tools, t.Name)
		if sch, err := form.Parse(t.InputSchema); err == nil && len(sch.Names()) > 0 {
			if n.ToolArgs == nil {
				n.ToolArgs = map[string][]string{}
			}
			n.ToolArgs[t.Name] = sch.Names()
		}
	}
	for _, p := range srv.Prompts {
		n.Prompts = append(n.Prompts, p.Name)
	}
	for _, r := range srv.Resources {
		n.Resources = append(n.Resources, r.URI)
	}
	if cacheDir != "" && n.Hash != "" {
		_ = cache.WriteServerNames(cacheDir, n) // a cache: the next TAB connects again
	}
	return n, true
}

// completionCacheDir is where the engine keeps its cache ("" if none).
func completionCacheDir() string {
	dir, err := platform.CacheDir()
	if err != nil {
		return ""
	}
	return dir
}

// registerEnumFlags completes every flag of cmd that takes one of a fixed
// set of values (cliargs.EnumFlag) with that set.
func registerEnumFlags(cmd *cobra.Command) {
	for _, fs := range []*pflag.FlagSet{cmd.LocalNonPersistentFlags(), cmd.PersistentFlags()} {
		fs.VisitAll(func(f *pflag.Flag) {
			e, ok := f.Value.(*cliargs.EnumFlag)
			if !ok {
				return
			}
			allowed := slices.Clone(e.Allowed)
			_ = cmd.RegisterFlagCompletionFunc(f.Name, func(*cobra.Command, []string, string) ([]string, cobra.ShellCompDirective) {
				return allowed, cobra.ShellCompDirectiveNoFileComp
			})
		})
	}
}
