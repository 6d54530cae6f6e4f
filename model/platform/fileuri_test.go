package platform

import (
	"runtime"
	"testing"
)

// TestFileURI: a path's URI on the system the test runs on; Windows puts
// the drive after a third slash and a share's server in the host.
func TestFileURI(t *testing.T) {
	cases := map[string]string{
		"/home/me/my proj": "file:///home/me/my%20proj",
		"/":                "file:///",
	}
	if runtime.GOOS == "windows" {
		cases = map[string]string{
			`C:\Users\me\my proj`: "file:///C:/Users/me/my%20proj",
			`D:\`:                 "file:///D:/",
			`\\server\share\proj`: "file://server/share/proj",
		}
	}
	for p, want := range cases {
		if got := FileURI(p); got != want {
			t.Errorf("FileURI(%q) = %q, want %q", p, got, want)
		}
	}
}
