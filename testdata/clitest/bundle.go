package clitest

import (
	"archive/tar"
	"compress/gzip"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
)

// ReadBundle extracts a tar.gz into a map of file name to content.
func ReadBundle(t *testing.T, path string) map[string]string {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	gz, err := gzip.NewReader(f)
	if err != nil {
		t.Fatal(err)
	}
	tr := tar.NewReader(gz)
	out := map[string]string{}
	for {
		hdr, err := tr.Next()
		if errors.Is(err, io.EOF) {
			return out
		}
		if err != nil {
			t.Fatal(err)
		}
		if hdr.Mode != 0o600 || !strings.HasPrefix(hdr.Name, "mcpdeck-bundle/") || strings.Contains(hdr.Name, "..") {
			t.Errorf("archive entry %s mode %o", hdr.Name, hdr.Mode)
		}
		b, err := io.ReadAll(tr)
		if err != nil {
			t.Fatal(err)
		}
		out[strings.TrimPrefix(hdr.Name, "mcpdeck-bundle/")] = string(b)
	}
}

// FileLike returns the content of the one bundle file whose name has
// prefix and suffix (servers/NN-name/… without knowing NN).
func FileLike(t *testing.T, files map[string]string, prefix, suffix string) string {
	t.Helper()
	for name, body := range files {
		if strings.HasPrefix(name, prefix) && strings.HasSuffix(name, suffix) {
			return body
		}
	}
	t.Fatalf("no %s…%s in the bundle", prefix, suffix)
	return ""
}
