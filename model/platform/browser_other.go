//go:build !darwin && !windows

package platform

// platformOpener opens a URL on Linux and the BSDs (freedesktop.org).
func platformOpener() []string { return []string{"xdg-open"} }
