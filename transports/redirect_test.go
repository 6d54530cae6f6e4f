package transports

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// TestHeadersNeverFollowARedirectToAnotherOrigin: a server that redirects
// elsewhere must not receive-by-proxy its API key at the other host, while
// a redirect within the same origin still works.
func TestHeadersNeverFollowARedirectToAnotherOrigin(t *testing.T) {
	var leaked atomic.Bool
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get("X-Api-Key") != "" {
			leaked.Store(true)
		}
	}))
	defer other.Close()
	var sameOK atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/away":
			http.Redirect(w, r, other.URL+"/steal", http.StatusTemporaryRedirect)
		case "/here":
			http.Redirect(w, r, "/final", http.StatusTemporaryRedirect)
		case "/final":
			sameOK.Store(r.Header.Get("X-Api-Key") == "k-123")
		}
	}))
	defer srv.Close()

	c := &Conn{}
	hc, idle := httpClientFor(c, model.ServerConfig{Headers: map[string]string{"X-Api-Key": "k-123"}}, Options{RequestTimeout: time.Minute}, false)
	defer idle()
	get := func(path string) error {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.URL+path, nil)
		resp, err := hc.Do(req)
		if err == nil {
			resp.Body.Close()
		}
		return err
	}
	if err := get("/away"); err == nil || !strings.Contains(err.Error(), "another origin") {
		t.Fatalf("a cross-origin redirect should be refused with a reason, got %v", err)
	}
	if leaked.Load() {
		t.Fatal("the API key reached another origin")
	}
	if err := get("/here"); err != nil || !sameOK.Load() {
		t.Fatalf("a same-origin redirect should be followed with the headers: %v", err)
	}
}
