//go:build windows

package platform

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"golang.org/x/sys/windows"
)

// tryLock asks for an exclusive LockFileEx lock on f's first byte without
// waiting (it fails with ERROR_LOCK_VIOLATION while another handle holds
// one) and releases it at once.
func tryLock(f *os.File) error {
	h := windows.Handle(f.Fd())
	flags := uint32(windows.LOCKFILE_EXCLUSIVE_LOCK | windows.LOCKFILE_FAIL_IMMEDIATELY)
	if err := windows.LockFileEx(h, flags, 0, 1, 0, new(windows.Overlapped)); err != nil {
		return err
	}
	return windows.UnlockFileEx(h, 0, 1, 0, new(windows.Overlapped))
}

// TestLockWaitsOutASidecarBeingDeleted: while the last holder's delete
// has the sidecar open (with DELETE access, as DeleteFile opens it), a
// second Lock is refused by Windows with a sharing violation; it waits
// that out and takes the lock once the delete lets go, instead of
// failing the edit.
func TestLockWaitsOutASidecarBeingDeleted(t *testing.T) {
	path := filepath.Join(t.TempDir(), "settings.json")
	name, err := windows.UTF16PtrFromString(path + ".lock")
	if err != nil {
		t.Fatal(err)
	}
	deleting, err := windows.CreateFile(name, windows.GENERIC_READ|windows.DELETE,
		windows.FILE_SHARE_READ|windows.FILE_SHARE_WRITE|windows.FILE_SHARE_DELETE, nil, windows.CREATE_ALWAYS, 0, 0)
	if err != nil {
		t.Fatal(err)
	}
	if f, err := os.OpenFile(path+".lock", os.O_RDWR, 0); err == nil {
		f.Close()
		_ = windows.CloseHandle(deleting)
		t.Skip("this system lets Go's open share a file with a delete")
	}
	// The delete ends a moment after Lock first tried: one the retries
	// wait out.
	timer := time.AfterFunc(100*time.Millisecond, func() { _ = windows.CloseHandle(deleting) })
	defer timer.Stop()
	unlock, err := Lock(path)
	if err != nil {
		t.Fatalf("Lock gave up while the sidecar was being deleted: %v", err)
	}
	unlock()
}
