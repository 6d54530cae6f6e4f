package doctor

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestDoctorSaysWhereTokensGo: without a Secret Service (no D-Bus session
// to reach), doctor says tokens go to credentials.json and why, not
// "keychain: available".
func TestDoctorSaysWhereTokensGo(t *testing.T) {
	e := clitest.NewEnv(t)
	e.Extra = append(e.Extra, "DBUS_SESSION_BUS_ADDRESS=unix:path="+filepath.Join(t.TempDir(), "no-bus"))
	r := e.Run("doctor")
	file := filepath.Join(e.Config, "mcpdeck", "credentials.json")
	want := "): tokens and secrets are stored in " + file + " (0600)"
	if !strings.Contains(r.Stdout, "! keychain: not usable (") || !strings.Contains(r.Stdout, want) {
		t.Errorf("doctor does not say tokens go to %s:\n%s", file, r)
	}
	if strings.Contains(r.Stdout, "✓ keychain") {
		t.Errorf("doctor claims a keychain:\n%s", r)
	}
}
