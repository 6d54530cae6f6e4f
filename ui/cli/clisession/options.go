package clisession

import (
	"fmt"
	"io"
	"os"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/oauth"
	"github.com/mcpdeck/mcpdeck/transports"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// TUIEngineOptions is the engine the plain `mcpdeck` runs on: the person's
// configuration, watched for changes.
func TUIEngineOptions(g *clicore.Globals) (engine.Options, error) {
	load, err := g.SecretLoadOptions()
	if err != nil {
		return engine.Options{}, err
	}
	o := engine.Options{Load: load, Factory: transports.NewFactory(), Watch: true, SamplingCommand: g.SamplingCommand, ClientVersion: clicore.ModuleVersion()}
	if dir, err := platform.CacheDir(); err == nil {
		o.CacheDir = dir
	}
	lookup := load.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	// OAuth for remote servers: not inline (a 401 shows needs-auth; the
	// person presses a), the sign-in URL reaches the screen through the
	// snapshot, and the browser is started without touching the terminal
	// (the one opener, launch.OpenBrowser, gives it no terminal).
	o.Auth = oauth.New(oauth.Options{
		ConfigDir: load.ConfigDir, CacheDir: o.CacheDir, LookupEnv: lookup,
	})
	if err := g.TraceInto(&o); err != nil {
		return engine.Options{}, err
	}
	return o, nil
}

// NewOAuthManager is the Manager the CLI uses: credentials in the keychain
// (or <config dir>/credentials.json), the needs-auth cache in the user cache
// dir. inline lets requests run the browser flow themselves on 401 and
// step-up (one-shot commands such as call and tools).
func NewOAuthManager(lo config.LoadOptions, stderr io.Writer, inline bool) *oauth.Manager {
	cacheDir := ""
	if d, err := platform.CacheDir(); err == nil {
		cacheDir = d
	}
	lookup := lo.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	return oauth.New(oauth.Options{
		ConfigDir:  lo.ConfigDir,
		CacheDir:   cacheDir,
		LookupEnv:  lookup,
		InlineAuth: inline,
		ShowURL: func(u string) {
			fmt.Fprintf(stderr, "Sign in in your browser. If it did not open, visit:\n  %s\n", u)
		},
	})
}
