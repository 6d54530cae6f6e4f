package jsonfile

import (
	"os"
	"time"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// openNonBlocking is os.Open (opening cannot wait for a pipe's writer on
// Windows; openRegular's checks refuse non-files), tried again for up to a
// second while another process holds the file: Windows refuses to open a
// file at the moment a write replaces it.
func openNonBlocking(path string) (f *os.File, err error) {
	err = platform.RetryWhileBusy(time.Second, func() error {
		f, err = os.Open(path)
		return err
	})
	return f, err
}
