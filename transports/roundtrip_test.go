package transports

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"testing/synctest"
	"time"
)

// fakeBase answers GET with an SSE stream fed by the test and POST with a
// JSON answer that comes only when the request's context ends.
type fakeBase struct{ stream *io.PipeReader }

func (f fakeBase) RoundTrip(r *http.Request) (*http.Response, error) {
	if r.Method == http.MethodGet {
		return &http.Response{
			StatusCode: 200, Header: http.Header{"Content-Type": {"text/event-stream"}},
			Body: f.stream, Request: r,
		}, nil
	}
	<-r.Context().Done()
	return nil, r.Context().Err()
}

// TestRequestTimeoutSparesSSEStreams checks, on a fake clock, that the
// per-request timeout cuts a silent POST but not a GET event stream that
// stays open far longer.
func TestRequestTimeoutSparesSSEStreams(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		pr, pw := io.Pipe()
		rt := &roundTripper{base: fakeBase{stream: pr}, timeout: time.Minute}
		hc := &http.Client{Transport: rt}
		ctx := t.Context()

		get, _ := http.NewRequestWithContext(ctx, http.MethodGet, "http://x/mcp", nil)
		resp, err := hc.Do(get)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()

		post, _ := http.NewRequestWithContext(ctx, http.MethodPost, "http://x/mcp", strings.NewReader("{}"))
		start := time.Now()
		_, err = hc.Do(post)
		var rte *RequestTimeoutError
		if !errors.As(err, &rte) || time.Since(start) != time.Minute {
			t.Fatalf("POST: %v after %s", err, time.Since(start))
		}
		if Classify(err) != ClassTimeout {
			t.Fatalf("class %v", Classify(err))
		}

		time.Sleep(10 * time.Minute) // fake clock: the stream outlives the timeout tenfold
		go func() { _, _ = pw.Write([]byte("data: still here\n\n")) }()
		buf := make([]byte, 64)
		n, err := resp.Body.Read(buf)
		if err != nil || !strings.Contains(string(buf[:n]), "still here") {
			t.Fatalf("stream cut: %q, %v", buf[:n], err)
		}
		_ = pw.Close()
	})
}

// TestRoundTripperSessionExpiredOnLegacySSE maps a POST 404 to
// ErrSessionExpired only for legacy SSE.
func TestRoundTripperSessionExpiredOnLegacySSE(t *testing.T) {
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: 404, Body: io.NopCloser(strings.NewReader("gone")), Header: http.Header{}, Request: r}, nil
	})
	for _, legacy := range []bool{true, false} {
		rt := &roundTripper{base: base, timeout: time.Minute, legacySSE: legacy}
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodPost, "http://x/message?sessionId=1", strings.NewReader("{}"))
		resp, err := rt.RoundTrip(req)
		if legacy {
			if !errors.Is(err, ErrSessionExpired) || Classify(err) != ClassSessionExpired {
				t.Fatalf("legacy: %v", err)
			}
			continue
		}
		if err != nil || resp.StatusCode != 404 {
			t.Fatalf("streamable: %v %v", resp, err)
		}
		_ = resp.Body.Close()
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// infiniteA is an endless stream of 'A' (one endless line).
type infiniteA struct{}

func (infiniteA) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'A'
	}
	return len(p), nil
}

// TestRoundTripperStreamFailuresMeanLost reports loss after three failed
// event-stream GETs in a row, not before, and resets on success.
func TestRoundTripperStreamFailuresMeanLost(t *testing.T) {
	status := 502
	base := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		return &http.Response{StatusCode: status, Body: io.NopCloser(strings.NewReader("")), Header: http.Header{}, Request: r}, nil
	})
	var lost []error
	rt := &roundTripper{base: base, timeout: time.Minute, onLost: func(err error) { lost = append(lost, err) }}
	get := func() {
		req, _ := http.NewRequestWithContext(context.Background(), http.MethodGet, "http://x/mcp", nil)
		resp, err := rt.RoundTrip(req)
		if err == nil {
			_ = resp.Body.Close()
		}
	}
	get()
	get()
	status = 200
	get() // success resets the count
	status = 502
	get()
	get()
	if len(lost) != 0 {
		t.Fatalf("lost too early: %v", lost)
	}
	get()
	if len(lost) != 1 || !errors.Is(lost[0], ErrConnectionLost) || Classify(lost[0]) != ClassTransient {
		t.Fatalf("lost = %v", lost)
	}
}
