//go:build windows

package platform

import (
	"errors"
	"math/rand/v2"
	"time"

	"golang.org/x/sys/windows"
)

// RetryWhileBusy runs op until it succeeds, fails for another reason than
// Windows refusing because another process holds the file
// (ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION), or budget has passed.
// Windows refuses to replace a file someone has open, and to open one
// being replaced; a reader of the settings, another mcpdeck writing them
// or a virus scanner each holds it for moments. It waits a little longer
// each time, with some randomness, so processes waiting together do not
// try again together.
func RetryWhileBusy(budget time.Duration, op func() error) error {
	deadline := time.Now().Add(budget)
	wait := time.Millisecond
	for {
		err := op()
		if err == nil || !busy(err) || time.Now().After(deadline) {
			return err
		}
		time.Sleep(wait + rand.N(wait))
		wait = min(2*wait, 50*time.Millisecond)
	}
}

// busy reports whether err is Windows saying another process holds the
// file.
func busy(err error) bool {
	return errors.Is(err, windows.ERROR_ACCESS_DENIED) || errors.Is(err, windows.ERROR_SHARING_VIOLATION)
}
