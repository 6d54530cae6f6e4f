package egress

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"testing/synctest"
	"time"
)

// TestHandshakeDeadline: a client that says nothing is cut.
func TestHandshakeDeadline(t *testing.T) {
	p, _ := startProxy(t, Options{Limits: Limits{HandshakeTimeout: 100 * time.Millisecond}})
	c, err := tcpDialer(p)(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	guard(t, c)
	expectClosed(t, c)
}

// TestIdleTunnelIsCut: a tunnel where nothing moves is closed.
func TestIdleTunnelIsCut(t *testing.T) {
	target := hold(t)
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{target}}, Limits: Limits{IdleTimeout: 200 * time.Millisecond}})
	_, br, status := rawConnect(t, tcpDialer(p), target)
	if status != http.StatusOK {
		t.Fatalf("CONNECT = %d", status)
	}
	expectClosed(t, br)
}

// TestIdleWatchWaitsForQuiet: activity postpones the cut; only a full
// quiet period fires it, once.
func TestIdleWatchWaitsForQuiet(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		var fired atomic.Int32
		w := newIdleWatch(time.Minute, func() { fired.Add(1) })
		for range 5 {
			time.Sleep(50 * time.Second)
			w.touch()
		}
		synctest.Wait()
		if fired.Load() != 0 {
			t.Fatalf("fired %d times with activity every 50s", fired.Load())
		}
		time.Sleep(61 * time.Second)
		synctest.Wait()
		if fired.Load() != 1 {
			t.Fatalf("fired %d times after a quiet minute, want 1", fired.Load())
		}
		w.stop()
	})
}

// TestMaxConns: a connection over the bound is closed at once, while the
// open tunnel keeps working.
func TestMaxConns(t *testing.T) {
	target := hold(t)
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{target}}, Limits: Limits{MaxConns: 1}})
	first, _, status := rawConnect(t, tcpDialer(p), target)
	if status != http.StatusOK {
		t.Fatalf("CONNECT = %d", status)
	}
	second, err := tcpDialer(p)(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer second.Close()
	guard(t, second)
	expectClosed(t, second)
	if _, err := first.Write([]byte("still open")); err != nil {
		t.Errorf("the first tunnel: %v", err)
	}
}

// TestCloseCutsTunnels: Close ends open tunnels, and goleak (TestMain)
// finds nothing left behind.
func TestCloseCutsTunnels(t *testing.T) {
	target := hold(t)
	p, _ := startProxy(t, Options{Rule: Rule{Hosts: []string{target}}})
	_, br, status := rawConnect(t, unixDialer(p), target)
	if status != http.StatusOK {
		t.Fatalf("CONNECT = %d", status)
	}
	if err := p.Close(); err != nil {
		t.Fatal(err)
	}
	expectClosed(t, br)
}

// TestStartContextEndsTheProxy: the proxy lives no longer than the
// context Start got.
func TestStartContextEndsTheProxy(t *testing.T) {
	target := hold(t)
	ctx, cancel := context.WithCancel(t.Context())
	p, err := Start(ctx, Options{Rule: Rule{Hosts: []string{target}}, Credential: testCred})
	if err != nil {
		t.Fatal(err)
	}
	_, br, status := rawConnect(t, tcpDialer(p), target)
	if status != http.StatusOK {
		t.Fatalf("CONNECT = %d", status)
	}
	cancel()
	expectClosed(t, br)
	if err := p.Close(); err != nil {
		t.Errorf("Close after the context ended: %v", err)
	}
}
