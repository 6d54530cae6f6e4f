//go:build unix && !linux

package egress

// untraceable has nothing to do where the shim is not bubblewrap's
// (macOS runs no shim).
func untraceable() {}
