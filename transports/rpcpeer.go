package transports

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"sync"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// rpcPeer is the JSON-RPC half shared by our stdio and websocket transports:
// it matches responses to requests, forwards notifications, answers
// server→client requests, and fails everything in flight when the stream
// dies. It implements transport.BidirectionalInterface except Start/Close,
// which the concrete transports add.
type rpcPeer struct {
	send func(ctx context.Context, msg []byte) error // writes one framed message

	mu      sync.Mutex
	pending map[string]chan *transport.JSONRPCResponse
	onNote  func(mcp.JSONRPCNotification)
	onReq   transport.RequestHandler
	answers answering // the server's requests being answered

	ctx    context.Context // lifetime of the peer: server→client handlers run under it
	cancel context.CancelFunc

	done    chan struct{}
	failErr error // set once before done closes
	once    sync.Once

	// probeEnded is set when the peer ended on the server/discover probe
	// (probe.go).
	probeEnded atomic.Bool
}

func newRPCPeer(send func(context.Context, []byte) error) *rpcPeer {
	ctx, cancel := context.WithCancel(context.Background())
	return &rpcPeer{
		send:    send,
		pending: make(map[string]chan *transport.JSONRPCResponse),
		answers: newAnswering(),
		ctx:     ctx,
		cancel:  cancel,
		done:    make(chan struct{}),
	}
}

// fail ends the peer with err (first call wins): in-flight and later
// requests return err, handlers' contexts are cancelled.
func (p *rpcPeer) fail(err error) {
	p.once.Do(func() {
		lock.With(&p.mu, func() { p.failErr = err })
		p.cancel()
		close(p.done)
	})
}

// err returns why the peer failed, or nil while it runs.
func (p *rpcPeer) err() (err error) {
	lock.With(&p.mu, func() { err = p.failErr })
	return err
}

// SendRequest writes request and waits for its response, the peer's failure
// or ctx, noting a discovery probe the server did not survive (probe.go).
func (p *rpcPeer) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := p.sendRequest(ctx, req)
	p.noteProbe(ctx, req, err)
	return resp, err
}

func (p *rpcPeer) sendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	if err := p.err(); err != nil {
		return nil, err
	}
	b, err := json.Marshal(req)
	if err != nil {
		return nil, fmt.Errorf("encode request: %w", err)
	}
	key := req.ID.String()
	ch := make(chan *transport.JSONRPCResponse, 1)
	lock.With(&p.mu, func() { p.pending[key] = ch })
	defer lock.With(&p.mu, func() { delete(p.pending, key) })
	if err := p.send(ctx, b); err != nil {
		if ferr := p.err(); ferr != nil {
			return nil, ferr
		}
		return nil, err
	}
	select {
	case resp := <-ch:
		return resp, nil
	case <-p.done:
		select {
		case resp := <-ch: // answered just before the stream ended
			return resp, nil
		default:
		}
		return nil, p.err()
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// SendNotification writes a notification.
func (p *rpcPeer) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	if err := p.err(); err != nil {
		return err
	}
	b, err := json.Marshal(n)
	if err != nil {
		return fmt.Errorf("encode notification: %w", err)
	}
	return p.send(ctx, b)
}

// SetNotificationHandler installs the notification callback.
func (p *rpcPeer) SetNotificationHandler(h func(mcp.JSONRPCNotification)) {
	lock.With(&p.mu, func() { p.onNote = h })
}

// SetRequestHandler installs the server→client request handler.
func (p *rpcPeer) SetRequestHandler(h transport.RequestHandler) {
	lock.With(&p.mu, func() { p.onReq = h })
}

// GetSessionId is empty: stdio and websocket have no session id.
func (p *rpcPeer) GetSessionId() string { return "" } //nolint:revive // mcp-go's name

// envelope holds the fields that tell JSON-RPC message kinds apart.
type envelope struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Method  string          `json:"method"`
	Result  present         `json:"result"`
	Error   present         `json:"error"`
}

// present records that a member is there without copying its value: a
// result may be tens of megabytes, and the message is decoded again into
// its real type.
type present bool

func (p *present) UnmarshalJSON([]byte) error { *p = true; return nil }

// dispatch routes one received message, which it may keep: a response's
// result refers into msg (decodeResponse), so the caller hands msg over. A message that is not JSON-RPC 2.0
// returns a *ProtocolError; the caller decides to fail the peer.
func (p *rpcPeer) dispatch(msg []byte) error {
	msg = bytes.TrimSpace(msg)
	if len(msg) > 0 && msg[0] == '[' { // a batch (2025-03-26)
		var batch []json.RawMessage
		if err := json.Unmarshal(msg, &batch); err != nil {
			return protocolErr("invalid JSON", msg, err)
		}
		for _, m := range batch {
			if err := p.dispatch(m); err != nil {
				return err
			}
		}
		return nil
	}
	var env envelope
	if err := json.Unmarshal(msg, &env); err != nil {
		return protocolErr("invalid JSON", msg, err)
	}
	if env.JSONRPC != mcp.JSONRPC_VERSION {
		return protocolErr(`missing "jsonrpc": "2.0"`, msg, nil)
	}
	hasID := len(env.ID) > 0 && string(env.ID) != "null"
	switch {
	case env.Method != "" && !hasID:
		var n mcp.JSONRPCNotification
		if err := json.Unmarshal(msg, &n); err != nil {
			return protocolErr("invalid notification", msg, err)
		}
		var h func(mcp.JSONRPCNotification)
		lock.With(&p.mu, func() { h = p.onNote })
		if h != nil {
			h(n)
		}
	case env.Method != "":
		var r transport.JSONRPCRequest
		if err := json.Unmarshal(msg, &r); err != nil {
			return protocolErr("invalid request", msg, err)
		}
		p.serve(r)
	case hasID && bool(env.Result || env.Error):
		r, err := decodeResponse(msg)
		if err != nil {
			return protocolErr("invalid response", msg, err)
		}
		var ch chan *transport.JSONRPCResponse
		lock.With(&p.mu, func() {
			ch = p.pending[r.ID.String()]
			delete(p.pending, r.ID.String())
		})
		if ch != nil {
			ch <- r
		}
	default:
		return protocolErr("message is neither request, response nor notification", msg, nil)
	}
	return nil
}

// serve answers a server→client request on its own goroutine, once one of
// the connection's places for answers is free (answering).
func (p *rpcPeer) serve(r transport.JSONRPCRequest) {
	var h transport.RequestHandler
	lock.With(&p.mu, func() { h = p.onReq })
	p.answers.run(p.done, func() {
		var resp *transport.JSONRPCResponse
		if h == nil {
			resp = transport.NewJSONRPCErrorResponse(r.ID, mcp.METHOD_NOT_FOUND, "no handler for "+r.Method, nil)
		} else {
			var err error
			resp, err = h(p.ctx, r)
			if err != nil {
				resp = transport.NewJSONRPCErrorResponse(r.ID, mcp.INTERNAL_ERROR, err.Error(), nil)
			}
		}
		if resp == nil {
			return
		}
		b, err := json.Marshal(resp)
		if err != nil {
			return
		}
		_ = p.send(p.ctx, b) // the peer may be gone; nothing else to do
	})
}

// decodeResponse decodes a response whose result stays where it is in msg
// instead of being copied out: a tools list may be tens of megabytes.
func decodeResponse(msg []byte) (*transport.JSONRPCResponse, error) {
	var r struct {
		transport.JSONRPCResponse
		Result inPlace `json:"result"`
	}
	if err := json.Unmarshal(msg, &r); err != nil {
		return nil, err
	}
	r.JSONRPCResponse.Result = json.RawMessage(r.Result)
	return &r.JSONRPCResponse, nil
}

// inPlace is a JSON value left in the message it was decoded from, which
// its owner no longer changes: encoding/json hands UnmarshalJSON a slice of
// the input itself.
type inPlace []byte

func (p *inPlace) UnmarshalJSON(b []byte) error { *p = b; return nil }

func protocolErr(reason string, msg []byte, err error) *ProtocolError {
	const n = 120
	s := msg
	if len(s) > n {
		s = s[:n]
	}
	return &ProtocolError{Reason: reason, Snippet: clip(string(s)), Err: err}
}
