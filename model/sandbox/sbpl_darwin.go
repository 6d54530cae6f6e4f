//go:build darwin

package sandbox

import (
	"strconv"
	"strings"
)

// sbplProfile is the sandbox-exec profile (SBPL) of p on macOS: deny by
// default; read the listed paths and write the writable ones; stat
// anything (resolving a path needs it; it shows names, not contents);
// run and signal processes inside the sandbox; connect only to the
// proxy's loopback port (when the network is a host list) or anywhere
// (all). What runs later is denied writes after the allows, and closed
// paths are denied last: in SBPL a later rule overrides an earlier one
// for the same operation. The keychain's service
// (com.apple.SecurityServer and friends) is unreachable.
func sbplProfile(p Profile, proxyPort int) string {
	var b strings.Builder
	w := func(s string) { b.WriteString(s); b.WriteByte('\n') }
	w("(version 1)")
	w("(deny default)")
	w("(allow process-fork)")
	w("(allow process-exec)")
	w("(allow signal (target same-sandbox))")
	w("(allow sysctl-read)")
	w("(allow file-read-metadata)")
	w("(allow ipc-posix-shm)")
	w("(allow mach-lookup)")
	w(`(deny mach-lookup (global-name "com.apple.SecurityServer") (global-name "com.apple.securityd.xpc") (global-name "com.apple.secd") (global-name "com.apple.trustd.agent"))`)
	w(`(allow file-read* file-write-data (literal "/dev/null") (literal "/dev/zero") (literal "/dev/random") (literal "/dev/urandom") (literal "/dev/stdin") (literal "/dev/stdout") (literal "/dev/stderr") (subpath "/dev/fd"))`)
	if len(p.Read) > 0 {
		w("(allow file-read*" + sbplPaths(p.Read) + ")")
	}
	if len(p.Write) > 0 {
		w("(allow file-read* file-write*" + sbplPaths(p.Write) + ")")
	}
	switch {
	case p.Network.All:
		w("(allow network*)")
	case proxyPort > 0:
		w(`(allow network-outbound (remote tcp "localhost:` + strconv.Itoa(proxyPort) + `"))`)
	}
	// What runs later stays read-only inside the write paths, and cannot
	// be created where it does not exist yet (SBPL matches paths, not
	// files: no placeholder is needed); pinned directories cannot be
	// renamed or removed.
	runsLater := append([]string(nil), p.ReadOnly...)
	for _, ph := range p.Placeholders {
		runsLater = append(runsLater, ph.Path)
	}
	if len(runsLater) > 0 {
		w("(deny file-write*" + sbplPaths(runsLater) + ")")
	}
	if len(p.Pinned) > 0 {
		var b strings.Builder
		for _, d := range p.Pinned {
			b.WriteString(" (literal " + sbplString(d) + ")")
		}
		w("(deny file-write-unlink" + b.String() + ")")
	}
	if closed := append(append([]string(nil), p.Hide...), p.HideFiles...); len(closed) > 0 {
		w("(deny file-read* file-write*" + sbplPaths(closed) + ")")
	}
	return b.String()
}

// sbplPaths renders paths as SBPL subpath filters.
func sbplPaths(paths []string) string {
	var b strings.Builder
	for _, p := range paths {
		b.WriteString(" (subpath " + sbplString(p) + ")")
	}
	return b.String()
}

// sbplString quotes s as an SBPL string literal.
func sbplString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `"`, `\"`)
	return `"` + r.Replace(s) + `"`
}
