package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// notCredentials are mcpdeck's variables that hold no secret: where its
// files and tools are, and what a helper is told about its server.
var notCredentials = map[string]bool{
	"MCPDECK_MANAGED_DIR": true, "MCPDECK_REGISTRY_URL": true, "MCPDECK_NPM_DIR": true,
	"MCPDECK_DEMO_STATE": true, "MCPDECK_SERVER_URL": true, "MCPDECK_SERVER_NAME": true,
	"MCPDECK_PING_INTERVAL": true, "MCPDECK_SERVE_DEBUG": true, "MCPDECK_TREE": true,
}

// TestEveryOwnVariableIsJudged: each MCPDECK_ variable the program names
// is either one of its credentials (model.OwnSecretVar: stripped from
// every child) or known to hold none. A new variable fails here until
// someone decides which it is, so a credential added later cannot reach
// servers because the list was forgotten.
func TestEveryOwnVariableIsJudged(t *testing.T) {
	name := regexp.MustCompile(`"(MCPDECK_[A-Z0-9_]*[A-Z0-9])"`)
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); path != "." && (n == "testdata" || n == "node_modules" || strings.HasPrefix(n, ".") || n == "bin") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		for _, m := range name.FindAllStringSubmatch(string(b), -1) {
			if v := m[1]; !model.OwnSecretVar(v) && !notCredentials[v] {
				t.Errorf("%s names %s: add it to model's own credentials (secretspots.go) or to notCredentials here", path, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}
