package platform

// platformOpener opens a URL on macOS.
func platformOpener() []string { return []string{"open"} }
