//go:build darwin || windows

package oauth

// keyringReachable says whether go-keyring may be asked: the macOS
// keychain (/usr/bin/security) and the Windows credential manager are
// always there.
func keyringReachable() error { return nil }
