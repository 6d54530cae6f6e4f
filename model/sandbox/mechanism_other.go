//go:build !linux && !darwin

package sandbox

import "runtime"

// FindMechanism reports that this system has no mechanism mcpdeck can use.
func FindMechanism(func(string) bool) (Mechanism, error) {
	return Mechanism{}, &UnavailableError{Sentence: "sandbox needs Linux with bubblewrap or macOS: mcpdeck has no sandbox for " + runtime.GOOS}
}

// Wrap is never reached: FindMechanism fails on this system.
func (m Mechanism) Wrap(Profile, []string, []string, *Net) (Wrapped, error) {
	return Wrapped{}, &UnavailableError{Sentence: "sandbox needs Linux with bubblewrap or macOS: mcpdeck has no sandbox for " + runtime.GOOS}
}
