//go:build unix

package oauth

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

func TestOpenBrowserUsesBROWSER(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "got")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skip("no fifo:", err)
	}
	script := filepath.Join(dir, "browser.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nprintf '%s' \"$1\" > "+fifo+"\n"), 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv("BROWSER", script)
	if err := OpenBrowser(context.Background(), "http://127.0.0.1:1/authorize?a=b&c=d"); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(fifo) // blocks until the script writes
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != "http://127.0.0.1:1/authorize?a=b&c=d" {
		t.Errorf("browser got %q", got)
	}
}
