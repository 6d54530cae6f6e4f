//go:build windows

package platform

import (
	"os"
	"time"
)

// renameBudget is how long renameOver keeps trying: far longer than
// anyone holds a settings file open, short enough that a file held for
// good is reported.
const renameBudget = 5 * time.Second

// renameOver moves the temporary file tmp onto target, trying again while
// another process holds target (RetryWhileBusy): Windows refuses to
// replace a file that is open, or being replaced by another writer.
func renameOver(tmp, target string) error {
	return RetryWhileBusy(renameBudget, func() error { return os.Rename(tmp, target) })
}
