//go:build unix

package config

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// A config path that is a named pipe or a device is reported at once and
// never read: reading .mcp.json linked to /dev/tty used to wait for the
// keyboard. Load and AddServer both answer without a writer on the pipe.
func TestNonFileConfigIsNotRead(t *testing.T) {
	f := newFixture(t)
	fifo := filepath.Join(f.home, "pipe")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	symlink(t, fifo, f.projectFile())
	if err := os.MkdirAll(f.cfg, 0o755); err != nil {
		t.Fatal(err)
	}
	symlink(t, os.DevNull, f.userFile())

	done := make(chan []string, 1)
	go func() {
		var got []string
		r, err := Load(f.opts())
		if err != nil {
			got = append(got, err.Error())
		} else {
			for _, p := range r.Problems {
				got = append(got, p.Error())
			}
		}
		_, err = AddServer(f.opts(), model.ScopeUser, "s", model.ServerConfig{Command: "x"})
		got = append(got, "add: "+errString(err))
		done <- got
	}()
	var got []string
	select {
	case got = <-done:
	case <-time.After(10 * time.Second):
		// Let the stuck read finish so the test can end, then fail.
		if w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0); err == nil {
			w.Close()
		}
		<-done
		t.Fatal("reading a config path that is a named pipe blocked")
	}
	all := strings.Join(got, "\n")
	for _, want := range []string{
		"cannot read the file: it is a symlink to " + fifo + ", which is a named pipe, not a file (" + f.projectFile() + ")",
		"cannot read the file: it is a symlink to " + os.DevNull + ", which is a device, not a file (" + f.userFile() + ")",
		"add: invalid: cannot read the file: it is a symlink to " + os.DevNull + ", which is a device, not a file (" + f.userFile() + ")",
	} {
		if !strings.Contains(all, want) {
			t.Errorf("missing %q in:\n%s", want, all)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return "<nil>"
	}
	return err.Error()
}
