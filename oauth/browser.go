package oauth

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"runtime"
	"strings"
)

// OpenBrowser opens url with $BROWSER when set (a command; "%s" is replaced
// by the URL, else the URL is appended), else the platform opener. It does
// not wait for the browser to exit.
func OpenBrowser(_ context.Context, url string) error {
	var argv []string
	if b := strings.TrimSpace(os.Getenv("BROWSER")); b != "" {
		// $BROWSER may list alternatives separated by ':'; take the first.
		first, _, _ := strings.Cut(b, ":")
		argv = strings.Fields(first)
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
	} else {
		switch runtime.GOOS {
		case "darwin":
			argv = []string{"open", url}
		case "windows":
			argv = []string{"rundll32", "url.dll,FileProtocolHandler", url}
		default:
			argv = []string{"xdg-open", url}
		}
	}
	// Not tied to ctx: the browser outlives the flow by design.
	cmd := exec.Command(argv[0], argv[1:]...) //nolint:noctx // the browser is not ours to cancel
	cmd.Stdout, cmd.Stderr = nil, nil
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("cannot open a browser (%s): %w", argv[0], err)
	}
	go func() { _ = cmd.Wait() }()
	return nil
}
