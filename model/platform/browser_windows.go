package platform

// platformOpener opens a URL on Windows.
func platformOpener() []string { return []string{"rundll32", "url.dll,FileProtocolHandler"} }
