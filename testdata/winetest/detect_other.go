//go:build !windows

package winetest

// Detected is false: Wine runs Windows programs only.
func Detected() bool { return false }
