package transports

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// cancelNotifier sits in front of a streamable HTTP connection and sends
// notifications/cancelled for a request whose context ends before its
// answer is complete. mcp-go sends it over stdio only; over HTTP a server
// of a protocol older than 2026-07-28 (where ending the request's stream is
// the cancellation) otherwise goes on working on a call the person
// cancelled. The notification is best effort and bounded in time; it is
// never sent after the connection closed (life).
type cancelNotifier struct {
	next http.RoundTripper
	life context.Context
	wg   sync.WaitGroup
}

// cancelSendTimeout bounds one notifications/cancelled.
const cancelSendTimeout = 5 * time.Second

// RoundTrip passes req on and watches it until its answer is read.
func (n *cancelNotifier) RoundTrip(req *http.Request) (*http.Response, error) {
	id, ok := n.cancellable(req)
	if !ok {
		return n.next.RoundTrip(req)
	}
	done := make(chan struct{})
	n.wg.Go(func() {
		select {
		case <-req.Context().Done():
			n.sendCancelled(req, id)
		case <-done:
		case <-n.life.Done():
		}
	})
	resp, err := n.next.RoundTrip(req)
	if err != nil || resp.Body == nil {
		if req.Context().Err() == nil {
			close(done)
		}
		return resp, err
	}
	resp.Body = &watchedBody{ReadCloser: resp.Body, ctx: req.Context(), done: done}
	return resp, nil
}

// cancellable reports the id of a request that a cancellation would refer
// to: a JSON-RPC request (not a notification or a response), not the
// handshake, on a protocol before 2026-07-28.
func (n *cancelNotifier) cancellable(req *http.Request) (json.RawMessage, bool) {
	if req.Method != http.MethodPost || req.Body == nil || req.GetBody == nil ||
		req.Header.Get("MCP-Protocol-Version") >= mcp.ProtocolVersion20260728 {
		return nil, false
	}
	body, err := req.GetBody()
	if err != nil {
		return nil, false
	}
	defer body.Close()
	var msg struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
	}
	if json.NewDecoder(io.LimitReader(body, 1<<20)).Decode(&msg) != nil || len(msg.ID) == 0 || msg.Method == "" ||
		msg.Method == string(mcp.MethodInitialize) || msg.Method == string(mcp.MethodServerDiscover) {
		return nil, false
	}
	return msg.ID, true
}

// sendCancelled posts notifications/cancelled for id with the request's
// session and protocol headers; the round trippers behind add the rest.
func (n *cancelNotifier) sendCancelled(orig *http.Request, id json.RawMessage) {
	body, err := json.Marshal(map[string]any{
		"jsonrpc": "2.0", "method": string(mcp.MethodNotificationCancelled),
		"params": map[string]any{"requestId": id, "reason": "cancelled by the person"},
	})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(n.life, cancelSendTimeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, orig.URL.String(), bytes.NewReader(body))
	if err != nil {
		return
	}
	for _, h := range []string{"Mcp-Session-Id", "MCP-Protocol-Version"} {
		if v := orig.Header.Get(h); v != "" {
			req.Header.Set(h, v)
		}
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if resp, err := n.next.RoundTrip(req); err == nil {
		_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 1<<16))
		resp.Body.Close()
	}
}

// close waits for notifications under way (after life ended they stop).
func (n *cancelNotifier) close() { n.wg.Wait() }

// watchedBody tells the notifier the answer was read in full (or dropped
// while the request was still wanted): no cancellation is due then.
type watchedBody struct {
	io.ReadCloser
	ctx  context.Context
	done chan struct{}
	once sync.Once
}

func (b *watchedBody) Read(p []byte) (int, error) {
	n, err := b.ReadCloser.Read(p)
	if err == io.EOF {
		b.finish()
	}
	return n, err
}

func (b *watchedBody) Close() error {
	b.finish()
	return b.ReadCloser.Close()
}

// finish ends the watch, unless the request's context ended first: then
// the watcher sends the cancellation.
func (b *watchedBody) finish() {
	b.once.Do(func() {
		if b.ctx.Err() == nil {
			close(b.done)
		}
	})
}

// sendCancelled tells the server, off the caller's path and within
// cancelSendTimeout, that req was cancelled. The handshake is never
// cancelled this way (a server must not be told to forget it).
func (s *sessionCodeTransport) sendCancelled(ctx context.Context, req transport.JSONRPCRequest) {
	if req.Method == string(mcp.MethodInitialize) || req.Method == string(mcp.MethodServerDiscover) {
		return
	}
	n := mcp.JSONRPCNotification{JSONRPC: mcp.JSONRPC_VERSION, Notification: mcp.Notification{
		Method: string(mcp.MethodNotificationCancelled),
		Params: mcp.NotificationParams{AdditionalFields: map[string]any{"requestId": req.ID, "reason": ctx.Err().Error()}},
	}}
	go func() {
		ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), cancelSendTimeout)
		defer cancel()
		_ = s.SendNotification(ctx, n)
	}()
}
