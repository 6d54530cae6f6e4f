package platform

import (
	"net/url"
	"path/filepath"
	"strings"
)

// FileURI is the file URI of the absolute path p, as editors and MCP
// roots write it: file:///home/me/proj on Unix; on Windows
// file:///C:/Users/me/proj (the drive after a third slash: written
// without it, "C:" would be read as the URI's host) and
// file://server/share/proj for the share \\server\share\proj.
func FileURI(p string) string {
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(p)}
	if strings.HasPrefix(filepath.VolumeName(p), `\\`) {
		u.Host, u.Path, _ = strings.Cut(strings.TrimPrefix(u.Path, "//"), "/")
		u.Path = "/" + u.Path
	}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	return u.String()
}
