package oauth

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
)

// TestKeychainStartsNoDBusLaunch: with no session bus to reach, asking the
// system keychain starts no dbus-launch (go-keyring's D-Bus library would
// start one from PATH, outside the launcher) and says why it was not
// asked.
func TestKeychainStartsNoDBusLaunch(t *testing.T) {
	if sessionBusKnown(func(string) string { return "" }, fileExists, os.Getuid()) {
		t.Skipf("this machine has a session bus in /run/user/%d: the library would not start dbus-launch here", os.Getuid())
	}
	bin := t.TempDir()
	ran := filepath.Join(t.TempDir(), "ran")
	script := fmt.Sprintf("#!/bin/sh\ntouch %q\nexit 1\n", ran)
	if err := os.WriteFile(filepath.Join(bin, "dbus-launch"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "")
	_, err := SystemKeyring{}.Get(keychainService, "probe")
	if _, statErr := os.Stat(ran); statErr == nil {
		t.Fatal("asking the keychain started dbus-launch")
	}
	if !errors.Is(err, ErrNoSessionBus) {
		t.Errorf("error %v, want ErrNoSessionBus", err)
	}
}
