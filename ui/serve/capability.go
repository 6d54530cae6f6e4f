package serve

import (
	"io"
	"net/http"
	"net/url"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// capabilityPattern is the capability URL's route: the token as the one
// path segment after /mcp, for agents that take a URL and cannot set a
// header. A longer path (/mcp/TOKEN/x) matches nothing and is 404.
const capabilityPattern = "/mcp/{token}"

// CapabilityPath is the path of the capability URL for token: /mcp/TOKEN,
// the token escaped as a path segment. It is a secret as the token is.
func CapabilityPath(token string) string {
	return "/mcp/" + url.PathEscape(token)
}

// presented is the token a request offers: the path's on the capability
// URL (a header there counts for nothing), else the bearer header's.
// Callers compare it in constant time.
func presented(r *http.Request) string {
	if r.Pattern == capabilityPattern {
		return r.PathValue("token")
	}
	return bearer(r)
}

// maskedWriter is the person's log as the HTTP side writes it (the HTTP
// server's and the MCP transport's own lines), with the token masked:
// the capability URL carries it in the path, and any line that ever
// quotes a request's URL must not show it.
type maskedWriter struct {
	w io.Writer
	m *textsafe.Masker
}

func (mw maskedWriter) Write(p []byte) (int, error) {
	if _, err := io.WriteString(mw.w, mw.m.Mask(string(p))); err != nil {
		return 0, err
	}
	return len(p), nil
}

// logWriter is w with h's token masked (maskedWriter).
func (h HTTPOptions) logWriter(w io.Writer) io.Writer {
	return maskedWriter{w: w, m: textsafe.NewMasker(h.Token)}
}
