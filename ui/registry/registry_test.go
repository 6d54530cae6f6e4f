package registry

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestHostileRegistryAnswers: an answer over the size bound, one that is
// not JSON, a server error and a listed entry without a name are errors
// that say so; nothing is half-decoded.
func TestHostileRegistryAnswers(t *testing.T) {
	for _, c := range []struct {
		name, body, want string
		status           int
	}{
		{"huge", `{"servers":[` + strings.Repeat(" ", maxAnswer) + `]}`, "larger than 4 MB", 200},
		{"not json", `<html>`, "not the JSON expected", 200},
		{"server error", `oops`, "answered HTTP 500", 500},
		{"no name", `{"servers":[{"server":{"description":"x"}}]}`, `no "name"`, 200},
	} {
		t.Run(c.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				w.WriteHeader(c.status)
				_, _ = w.Write([]byte(c.body))
			}))
			defer srv.Close()
			_, err := Client{Base: srv.URL}.Search(t.Context(), "x", 10, "")
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}
}
