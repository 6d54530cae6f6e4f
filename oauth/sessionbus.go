package oauth

import (
	"errors"
	"os"
	"path"
	"strconv"
)

// ErrNoSessionBus means the keychain was not asked: on systems whose
// keychain is the Secret Service, there is no D-Bus session bus to reach it
// by.
var ErrNoSessionBus = errors.New("no D-Bus session bus (DBUS_SESSION_BUS_ADDRESS is unset)")

// A Secret Service keychain is reached over the D-Bus session bus. With no
// bus address set and none in the runtime directory, the D-Bus library
// go-keyring uses starts `dbus-launch` from PATH to make one: a program
// started outside mcpdeck's one launcher and its policy, which also leaves
// a bus daemon running. mcpdeck asks the keychain only when a bus is there
// to be reached, and otherwise keeps tokens in its 0600 file, saying so.

// sessionBusKnown reports whether a session bus is there to be reached the
// way the D-Bus library finds one without starting it: the address in
// DBUS_SESSION_BUS_ADDRESS (but "autolaunch:"), or /run/user/UID/bus or
// /run/user/UID/dbus-session.
func sessionBusKnown(getenv func(string) string, exists func(string) bool, uid int) bool {
	if a := getenv("DBUS_SESSION_BUS_ADDRESS"); a != "" && a != "autolaunch:" {
		return true
	}
	run := path.Join("/run/user", strconv.Itoa(uid)) // a Unix path wherever this is built
	return exists(path.Join(run, "bus")) || exists(path.Join(run, "dbus-session"))
}

func fileExists(path string) bool {
	_, err := os.Stat(path)
	return err == nil
}
