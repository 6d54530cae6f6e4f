package inorder

import (
	"bufio"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestJSONAfterALateNotificationIsAnEvent: a notification can be queued
// after the server decided to answer with plain JSON but before it wrote
// the answer (a server's progress relayed as its result comes back). The
// notification then opened the response as SSE, and the server's JSON
// must arrive as an event on it: written raw, a client reading events
// finds no answer and reports the stream ended without one.
func TestJSONAfterALateNotificationIsAnEvent(t *testing.T) {
	seen := make(chan struct{})
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s, _ := r.Context().Value(streamKey{}).(*Stream)
		if s == nil {
			t.Error("no Stream in the request's context")
			return
		}
		s.enqueue([]byte(`{"jsonrpc":"2.0","method":"notifications/progress","params":{"progress":1}}`), nil)
		<-seen // the client has read the notification: the response is SSE
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}` + "\n"))
	})
	ts := httptest.NewServer(HTTP(next))
	defer ts.Close()
	req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); ct != "text/event-stream" {
		t.Fatalf("Content-Type %q, want text/event-stream", ct)
	}
	sc := bufio.NewScanner(resp.Body)
	var data []string
	for sc.Scan() {
		line := sc.Text()
		if d, ok := strings.CutPrefix(line, "data: "); ok {
			data = append(data, d)
			if len(data) == 1 {
				close(seen)
			}
		} else if line != "" && !strings.HasPrefix(line, "event:") {
			t.Errorf("a line that is no part of an SSE event: %q", line)
		}
	}
	if len(data) != 2 || !strings.Contains(data[1], `"id":1`) {
		t.Fatalf("events %q, want the notification, then the answer", data)
	}
}
