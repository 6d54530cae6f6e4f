//go:build darwin

package sandbox

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestSBPLProfile holds the generated sandbox-exec profile to its rules:
// deny by default, reads and writes of the listed paths only, the
// proxy's loopback port the only way out, the closed paths denied last
// (a later rule wins), the keychain's service unreachable. It runs on
// macOS only; elsewhere it is compiled (GOOS=darwin go vet).
func TestSBPLProfile(t *testing.T) {
	p := Profile{
		Read: []string{"/usr", `/Users/u/we"ird`}, Write: []string{"/private/var/folders/x/T/mcpdeck-sandbox-1"},
		Hide: []string{"/Users/u/.ssh"}, HideFiles: []string{"/Users/u/.netrc"},
	}
	got := sbplProfile(p, 8123)
	for _, want := range []string{
		"(version 1)\n(deny default)\n",
		`(allow file-read* (subpath "/usr") (subpath "/Users/u/we\"ird"))`,
		`(allow file-read* file-write* (subpath "/private/var/folders/x/T/mcpdeck-sandbox-1"))`,
		`(allow network-outbound (remote tcp "localhost:8123"))`,
		`(deny mach-lookup (global-name "com.apple.SecurityServer")`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("profile lacks %s:\n%s", want, got)
		}
	}
	deny := `(deny file-read* file-write* (subpath "/Users/u/.ssh") (subpath "/Users/u/.netrc"))`
	if !strings.HasSuffix(got, deny+"\n") {
		t.Errorf("closed paths must be denied last (a later rule wins):\n%s", got)
	}
	if strings.Contains(got, "network*") || strings.Contains(sbplProfile(Profile{}, 0), "network") {
		t.Errorf("network opened beyond the proxy:\n%s", got)
	}
	if !strings.Contains(sbplProfile(Profile{Network: model.SandboxNetwork{All: true}}, 0), "(allow network*)") {
		t.Error("network all is not allowed")
	}
}
