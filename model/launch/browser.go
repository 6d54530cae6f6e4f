package launch

import (
	"context"
	"errors"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// ErrNotWebURL refuses to open anything but an http or https URL.
var ErrNotWebURL = errors.New("only http and https URLs are opened")

// browserVerdict is how long OpenBrowser waits to hear whether the opener
// failed at once (xdg-open without a browser); an opener still running
// then has handed the URL on.
const browserVerdict = 2 * time.Second

// OpenBrowser opens u in the person's browser: the program
// platform.BrowserCommand names ($BROWSER, else the platform's opener),
// found and judged like every other program, never through a shell. It is
// not put in a process group or job of its own (the browser it starts must
// outlive mcpdeck) and is not waited for beyond a short verdict. An error
// means nothing was opened: the caller shows the URL for copying.
func (l Launcher) OpenBrowser(ctx context.Context, u string) error {
	p, err := url.Parse(u)
	if err != nil || (p.Scheme != "http" && p.Scheme != "https") {
		return ErrNotWebURL
	}
	argv := platform.BrowserCommand(u, os.Getenv("BROWSER"))
	cmd, err := l.command(Spec{Command: argv[0], Args: argv[1:]})
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("the browser opener: %w", err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }() // reaps the opener whenever it ends
	timer := time.NewTimer(browserVerdict)
	defer timer.Stop()
	select {
	case err := <-done:
		if err != nil {
			return fmt.Errorf("the browser opener %s: %w", cmd.Path, err)
		}
	case <-timer.C:
	case <-ctx.Done():
	}
	return nil
}
