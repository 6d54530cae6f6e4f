package config

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// LoadOptions says where to look for configuration. Every path is explicit so
// tests (and the CLI's --json snapshots) never depend on the real machine.
type LoadOptions struct {
	Cwd        string                      // working directory (project discovery starts here)
	Home       string                      // home dir: the .mcp.json walk stops here; servers the project did not define start here
	ConfigDir  string                      // platform.ConfigDir(): settings.json, plugins/
	ManagedDir string                      // /etc/mcpdeck unless MCPDECK_MANAGED_DIR
	Dynamic    []string                    // --mcp-config values: a file path or inline JSON
	LookupEnv  func(string) (string, bool) // for ${VAR} and the PATH policy rules search; nil = os.LookupEnv
	// LookupSecret reads a ${secret:NAME} of a user or local definition
	// from mcpdeck's secret store (ErrSecretNotFound when absent;
	// SkipSecrets for a command that runs no server and reads none); nil =
	// no store, so such references are problems. Called only for
	// definitions that hold one.
	LookupSecret func(SecretRef) (string, error)
	// Previous is the configuration in force when this load replaces it
	// (the engine's reload), nil for a first load. A plugin, user or
	// project file that exists but whose servers cannot be read (a
	// half-saved edit) keeps the servers Previous read from it, so they go
	// on as they were; the file's problem still says why. Managed config
	// never does: it fails closed.
	Previous *Resolved
}

// defaultManagedDir is where administrators put managed-mcp.json and
// managed-settings.json when MCPDECK_MANAGED_DIR does not say otherwise.
const defaultManagedDir = "/etc/mcpdeck"

// DefaultLoadOptions fills LoadOptions from the process environment: the
// working directory, the home directory, the XDG-aware user config dir and
// MCPDECK_MANAGED_DIR. It fails only when the OS cannot tell us these.
func DefaultLoadOptions(dynamic []string) (LoadOptions, error) {
	cwd, err := os.Getwd()
	if err != nil {
		return LoadOptions{}, fmt.Errorf("cannot determine the working directory: %w", err)
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return LoadOptions{}, fmt.Errorf("cannot determine the home directory: %w", err)
	}
	cfg, err := platform.ConfigDir()
	if err != nil {
		return LoadOptions{}, err
	}
	managed := os.Getenv("MCPDECK_MANAGED_DIR")
	if managed == "" {
		managed = defaultManagedDir
	}
	return LoadOptions{
		Cwd:        cwd,
		Home:       home,
		ConfigDir:  cfg,
		ManagedDir: managed,
		Dynamic:    dynamic,
	}, nil
}

// lookup returns the environment lookup to use for ${VAR} expansion.
func (o LoadOptions) lookup() func(string) (string, bool) {
	if o.LookupEnv != nil {
		return o.LookupEnv
	}
	return os.LookupEnv
}

// check rejects options that would make discovery read arbitrary places
// (a relative Cwd would depend on the process's own working directory),
// or leave servers the working tree did not define nowhere to start but
// there (they start in Home: workDir).
func (o LoadOptions) check() error {
	if o.Cwd == "" || !filepath.IsAbs(o.Cwd) {
		return fmt.Errorf("%w: working directory %q must be an absolute path", model.ErrInvalid, o.Cwd)
	}
	if o.Home == "" || !filepath.IsAbs(o.Home) {
		return fmt.Errorf("%w: home directory %q must be an absolute path", model.ErrInvalid, o.Home)
	}
	return nil
}
