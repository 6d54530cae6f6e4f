//go:build !darwin && !windows

package oauth

import "os"

// keyringReachable says whether go-keyring may be asked: the Secret
// Service needs a session bus (sessionbus.go).
func keyringReachable() error {
	if !sessionBusKnown(os.Getenv, fileExists, os.Getuid()) {
		return ErrNoSessionBus
	}
	return nil
}
