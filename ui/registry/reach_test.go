package registry

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"testing/synctest"
	"time"
)

// sentence is what a person reads when the registry at u cannot be reached.
func sentence(u string) string {
	return "could not reach the MCP Registry at " + u + " (offline?); set MCPDECK_REGISTRY_URL to use another"
}

// TestSilentRegistryFailsSoon: a registry that accepts the connection and
// never answers, and one whose connection never completes, fail at the
// answer's and the connection's bound, both before the whole exchange's,
// with the one sentence that says what to do. The network is in memory and
// the clock the bubble's, so the bounds are exact and nothing waits.
func TestSilentRegistryFailsSoon(t *testing.T) {
	for _, c := range []struct {
		name string
		dial func(t *testing.T) dialFunc
		want time.Duration
	}{
		{"accepts and never answers", acceptSilently, answerTimeout},
		{"never connects", neverConnect, connectTimeout},
	} {
		t.Run(c.name, func(t *testing.T) {
			synctest.Test(t, func(t *testing.T) {
				hc := newHTTPClient(c.dial(t))
				defer hc.CloseIdleConnections()
				reg := Client{Base: "http://registry.invalid", HTTP: hc}
				start := time.Now()
				_, err := reg.Search(t.Context(), "files", 10, "")
				took := time.Since(start)
				if !errors.Is(err, ErrUnreachable) || err.Error() != sentence("http://registry.invalid") {
					t.Fatalf("got %v, want %q", err, sentence("http://registry.invalid"))
				}
				if took != c.want || took >= reqTimeout {
					t.Errorf("failed after %s, want %s (before the whole exchange's %s)", took, c.want, reqTimeout)
				}
			})
		})
	}
}

// acceptSilently is a network whose every connection is accepted and read,
// and never answered.
func acceptSilently(t *testing.T) dialFunc {
	return func(context.Context, string, string) (net.Conn, error) {
		client, server := net.Pipe()
		go func() {
			_, _ = io.Copy(io.Discard, server)
			_ = server.Close()
		}()
		t.Cleanup(func() { _ = client.Close() })
		return client, nil
	}
}

// neverConnect is a network whose connections never complete (a dropped
// SYN): the dial ends only when its context does.
func neverConnect(*testing.T) dialFunc {
	return func(ctx context.Context, network, _ string) (net.Conn, error) {
		<-ctx.Done()
		return nil, &net.OpError{Op: "dial", Net: network, Err: ctx.Err()}
	}
}

// TestRefusedRegistrySaysSo: nothing listening at the registry's URL (a
// closed port on this machine) is the same sentence, in full, from search
// and from show (no "server NAME:" before it: the registry failed, not the
// server), and the refusal is still there for errors.Is.
func TestRefusedRegistrySaysSo(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	u := "http://" + ln.Addr().String()
	_ = ln.Close()
	reg := Client{Base: u}
	_, err = reg.Search(t.Context(), "", 10, "")
	if err == nil || err.Error() != sentence(u) || !errors.Is(err, syscall.ECONNREFUSED) {
		t.Errorf("search: %v", err)
	}
	_, err = reg.Show(t.Context(), "io.example/x", "")
	if err == nil || err.Error() != sentence(u) {
		t.Errorf("show: %v", err)
	}
}

// TestUntrustedRegistryIsNotOffline: a registry that was reached but whose
// certificate this machine does not trust is not called offline: the
// error names the registry and the certificate, without Go's `Get "…"`.
func TestUntrustedRegistryIsNotOffline(t *testing.T) {
	srv := httptest.NewTLSServer(nil)
	t.Cleanup(srv.Close)
	_, err := Client{Base: srv.URL}.Search(t.Context(), "", 10, "")
	if err == nil || errors.Is(err, ErrUnreachable) || strings.Contains(err.Error(), `Get "`) ||
		!strings.HasPrefix(err.Error(), "the MCP Registry at "+srv.URL+" did not answer: ") || !strings.Contains(err.Error(), "certificate") {
		t.Errorf("got %v", err)
	}
}
