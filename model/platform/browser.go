package platform

import (
	"os"
	"path/filepath"
	"strings"
)

// BrowserCommand is the one rule for the program that opens url in a
// browser, as argv. browser is the value of $BROWSER: when it is set, its
// first entry (entries are separated by ':') is the program — whole when it
// is the absolute path of a program file, so a path with a space
// ("/Users/me/Application Support/open-url") still names it, else split
// into words — with "%s" in a word replaced by the URL, or the URL added
// as the last argument when no word holds "%s". Otherwise the platform's
// opener: open on macOS, rundll32 url.dll,FileProtocolHandler on Windows,
// xdg-open elsewhere. Nothing is given to a shell.
func BrowserCommand(url, browser string) []string {
	first, _, _ := strings.Cut(strings.TrimSpace(browser), string(os.PathListSeparator))
	argv := strings.Fields(first)
	if filepath.IsAbs(first) && isProgramFile(first) {
		argv = []string{first}
	}
	if len(argv) == 0 {
		return append(platformOpener(), url)
	}
	replaced := false
	for i, a := range argv {
		if strings.Contains(a, "%s") {
			argv[i] = strings.ReplaceAll(a, "%s", url)
			replaced = true
		}
	}
	if !replaced {
		argv = append(argv, url)
	}
	return argv
}
