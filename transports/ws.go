package transports

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/coder/websocket"
	"github.com/mark3labs/mcp-go/client"

	"github.com/mcpdeck/mcpdeck/model"
)

// wsSubprotocol is the WebSocket subprotocol of MCP.
const wsSubprotocol = "mcp"

// wsPongFloor is the least time a ping's pong is waited for, however often
// pings go: a busy machine can take longer than a short interval to
// answer, and that is not a lost connection.
const wsPongFloor = 2 * time.Second

// wsCloseGrace bounds the close handshake.
const wsCloseGrace = 500 * time.Millisecond

// wsTransport speaks JSON-RPC over a WebSocket, one message per frame. It
// implements mcp-go's transport.BidirectionalInterface.
type wsTransport struct {
	*rpcPeer
	conn     *websocket.Conn
	name     string // server name, for errors
	limit    int    // Options.MaxMessageSize
	readDone chan struct{}
	pingDone chan struct{}
	once     sync.Once
}

// dialWS connects and starts the read and keepalive loops.
func dialWS(ctx context.Context, name string, cfg model.ServerConfig, opts Options) (*wsTransport, error) {
	header := http.Header{}
	for k, v := range cfg.Headers {
		header.Set(k, v)
	}
	if opts.HeaderFunc != nil {
		h, err := opts.HeaderFunc(ctx)
		if err != nil {
			return nil, fmt.Errorf("headers helper failed: %w", err)
		}
		for k, v := range h {
			header.Set(k, v)
		}
	}
	hc := opts.HTTPClient
	var idle func()
	if tr, ok := editorHTTPTransport(cfg, opts.socketTables); ok {
		hc, idle = &http.Client{Transport: tr}, tr.CloseIdleConnections
	} else if hc == nil {
		tr := http.DefaultTransport.(*http.Transport).Clone()
		hc, idle = &http.Client{Transport: tr}, tr.CloseIdleConnections
	}
	dctx, cancel := context.WithTimeout(ctx, opts.RequestTimeout)
	defer cancel()
	conn, resp, err := websocket.Dial(dctx, cfg.URL, &websocket.DialOptions{
		HTTPClient:   hc,
		HTTPHeader:   header,
		Subprotocols: []string{wsSubprotocol},
	})
	if idle != nil {
		defer idle() // the upgraded connection is no longer in the pool
	}
	if err != nil {
		if resp != nil && resp.StatusCode != http.StatusSwitchingProtocols {
			if refused := editorRefusal(cfg, resp.StatusCode); refused != nil {
				return nil, refused
			}
			return nil, fmt.Errorf("websocket handshake: %w: %w", err,
				&HTTPStatusError{Method: http.MethodGet, URL: cfg.URL, Status: resp.StatusCode})
		}
		return nil, fmt.Errorf("websocket handshake: %w", err)
	}
	conn.SetReadLimit(int64(opts.maxMessage()))
	t := &wsTransport{conn: conn, name: name, limit: opts.maxMessage(), readDone: make(chan struct{}), pingDone: make(chan struct{})}
	t.rpcPeer = newRPCPeer(func(ctx context.Context, msg []byte) error {
		return conn.Write(ctx, websocket.MessageText, msg)
	})
	go t.read()
	go t.keepalive(opts.PingInterval)
	return t, nil
}

func (t *wsTransport) read() {
	defer close(t.readDone)
	for {
		typ, msg, err := t.conn.Read(t.ctx)
		if err != nil {
			switch {
			case errors.Is(err, websocket.ErrMessageTooBig):
				err = &MessageTooLargeError{Server: t.name, Limit: t.limit, Err: err}
			case websocket.CloseStatus(err) != -1:
				err = fmt.Errorf("%w: websocket closed by server: %w", ErrConnectionLost, err)
			}
			t.fail(err)
			return
		}
		if typ != websocket.MessageText {
			continue
		}
		if err := t.dispatch(msg); err != nil {
			t.fail(err)
			_ = t.conn.CloseNow()
			return
		}
	}
}

// keepalive pings every interval; a ping without pong within the interval
// (but at least wsPongFloor, and 10 s at most) means the connection is
// lost.
func (t *wsTransport) keepalive(every time.Duration) {
	defer close(t.pingDone)
	if every < 0 {
		<-t.done
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-t.done:
			return
		case <-tick.C:
			ctx, cancel := context.WithTimeout(t.ctx, min(max(every, wsPongFloor), 10*time.Second))
			err := t.conn.Ping(ctx)
			cancel()
			if err != nil && t.ctx.Err() == nil {
				t.fail(fmt.Errorf("%w: websocket ping failed: %w", ErrConnectionLost, err))
				_ = t.conn.CloseNow()
				return
			}
		}
	}
}

// Start is a no-op: the connection is dialed in dialWS.
func (t *wsTransport) Start(context.Context) error { return nil }

// Close runs the close handshake (bounded) and waits for the loops.
func (t *wsTransport) Close() error { return t.shutdown(context.Background()) }

func (t *wsTransport) shutdown(ctx context.Context) error {
	var err error
	t.once.Do(func() {
		done := make(chan struct{})
		go func() {
			err = t.conn.Close(websocket.StatusNormalClosure, "")
			close(done)
		}()
		timer := time.NewTimer(wsCloseGrace)
		defer timer.Stop()
		select {
		case <-done:
		case <-timer.C:
			_ = t.conn.CloseNow()
			<-done
		case <-ctx.Done():
			_ = t.conn.CloseNow()
			<-done
		}
		t.fail(ErrClosed)
		<-t.readDone
		<-t.pingDone
		if errors.Is(err, net.ErrClosed) || websocket.CloseStatus(err) != -1 {
			err = nil
		}
	})
	return err
}

func openWS(ctx context.Context, c *Conn, cfg model.ServerConfig, opts Options) error {
	t, err := dialWS(ctx, c.name, cfg, opts)
	if err != nil {
		return err
	}
	c.shutdown, c.reason, c.probeEnded = t.shutdown, t.err, t.probeEnded.Load
	go func() {
		<-t.done
		c.lost(t.err())
	}()
	c.client = client.NewClient(tapped(t, c.rec), clientOptions(opts)...)
	return c.client.Start(context.Background())
}
