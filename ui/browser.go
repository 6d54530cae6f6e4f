package ui

import (
	"context"
	"errors"
	"net/url"
	"os"
	"os/exec"
	"runtime"
	"time"
)

// errBadURL is returned for a URL that is not http(s).
var errBadURL = errors.New("only http and https URLs are opened")

// OpenBrowser opens u with $BROWSER, open (macOS), rundll32 (Windows) or
// xdg-open; only http(s) URLs, never through a shell.
func OpenBrowser(ctx context.Context, u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return errBadURL
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	var cmd *exec.Cmd
	switch {
	case os.Getenv("BROWSER") != "":
		cmd = exec.CommandContext(ctx, os.Getenv("BROWSER"), u)
	case runtime.GOOS == "darwin":
		cmd = exec.CommandContext(ctx, "open", u)
	case runtime.GOOS == "windows":
		cmd = exec.CommandContext(ctx, "rundll32", "url.dll,FileProtocolHandler", u)
	default:
		cmd = exec.CommandContext(ctx, "xdg-open", u)
	}
	return cmd.Run()
}
