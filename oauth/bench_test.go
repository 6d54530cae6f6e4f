package oauth

import (
	"context"
	"net/http"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// BenchmarkRoundTripWithToken measures what the Manager adds to a request
// that already has a valid token (the common case of a connected server).
func BenchmarkRoundTripWithToken(b *testing.B) {
	ok := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 200, Body: http.NoBody, Header: http.Header{}, Request: r}, nil
	})
	store := newMapStore()
	m := New(Options{Store: store, Transport: ok})
	srv := model.Server{Name: "b", Hash: "h", Config: model.ServerConfig{Type: model.TransportHTTP, URL: "http://127.0.0.1:1/mcp"}}
	if err := m.vault.saveJSON(context.Background(), storeKey(srv, kindToken), &tokenRecord{AccessToken: "x", ExpiresAt: time.Now().Add(time.Hour)}); err != nil {
		b.Fatal(err)
	}
	c := m.HTTPClient(srv)
	req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, srv.Config.URL, nil)
	b.ReportAllocs()
	for b.Loop() {
		resp, err := c.Do(req)
		if err != nil {
			b.Fatal(err)
		}
		resp.Body.Close()
	}
}
