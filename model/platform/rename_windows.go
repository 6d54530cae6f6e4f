//go:build windows

package platform

import (
	"errors"
	"math/rand/v2"
	"os"
	"time"

	"golang.org/x/sys/windows"
)

// renameBudget is how long renameOver keeps trying: far longer than
// anyone holds a settings file open, short enough that a file held for
// good is reported.
const renameBudget = 5 * time.Second

// renameOver moves the temporary file tmp onto target. Windows refuses to
// replace a file while another process has it open or is replacing it
// itself (ERROR_ACCESS_DENIED, ERROR_SHARING_VIOLATION): a reader of the
// settings, another mcpdeck writing them, a virus scanner. Each holds it
// for moments, so the rename is tried again, waiting a little longer each
// time, with some randomness so that writers waiting together do not try
// again together.
func renameOver(tmp, target string) error {
	deadline := time.Now().Add(renameBudget)
	wait := time.Millisecond
	for {
		err := os.Rename(tmp, target)
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
