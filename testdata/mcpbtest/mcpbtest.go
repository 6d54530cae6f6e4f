// Package mcpbtest builds MCP bundles (.mcpb files, which are zip files)
// for tests, hostile ones included: any name, any mode.
package mcpbtest

import (
	"archive/zip"
	"bytes"
	"io/fs"
)

// File is one entry of a bundle. Mode 0 is a 0644 file; a name ending in
// "/" with fs.ModeDir is a directory, fs.ModeSymlink a link to Body.
type File struct {
	Name, Body string
	Mode       fs.FileMode
}

// Zip is a bundle holding files, stored (not compressed), in order.
func Zip(files ...File) ([]byte, error) {
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range files {
		h := &zip.FileHeader{Name: f.Name, Method: zip.Store}
		mode := f.Mode
		if mode == 0 {
			mode = 0o644
		}
		h.SetMode(mode)
		w, err := zw.CreateHeader(h)
		if err != nil {
			return nil, err
		}
		if _, err := w.Write([]byte(f.Body)); err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
