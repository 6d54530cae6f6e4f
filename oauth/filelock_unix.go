//go:build unix

package oauth

import (
	"os"
	"syscall"
)

// lockFile takes an exclusive advisory lock on path+".lock" so that two
// mcpdeck processes updating credentials.json do not lose each other's
// entries; the returned func releases it.
func lockFile(path string) (func(), error) {
	f, err := os.OpenFile(path+".lock", os.O_CREATE|os.O_RDWR, 0o600)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		_ = syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
