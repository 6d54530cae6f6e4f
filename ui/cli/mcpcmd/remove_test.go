package mcpcmd

import (
	"path/filepath"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/ui/cli/registrycmd"
)

// TestBundleDirOfReadsNoSecrets: finding the bundle directory a server
// runs from reads the definitions as written; the secret store is not
// asked for any server's ${secret:NAME} (keychain reads, one per
// reference, for a working directory).
func TestBundleDirOfReadsNoSecrets(t *testing.T) {
	e := clitest.NewEnv(t)
	opts := e.LoadOptions()
	dir := filepath.Join(registrycmd.BundleStore(opts).Root, "b@1.0.0-0123456789ab")
	e.WriteFile(filepath.Join(dir, ".mcpdeck-bundle"), "0123456789ab\n")
	e.WriteFile(filepath.Join(opts.ConfigDir, "settings.json"), `{"mcpServers": {
		"b": {"command": "node", "cwd": "`+filepath.ToSlash(dir)+`", "env": {"KEY": "${secret:KEY}"}},
		"other": {"command": "x", "env": {"T": "${secret:T}"}}}}`)
	opts.LookupSecret = func(ref config.SecretRef) (string, error) {
		t.Errorf("the secret store was asked for %s of %s", ref.Name, ref.Server)
		return "", config.ErrSecretNotFound
	}
	if got := bundleDirOf(opts, 0, "b"); got != dir {
		t.Errorf("bundleDirOf = %q, want %q", got, dir)
	}
}
