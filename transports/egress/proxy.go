package egress

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"time"
)

// acceptBackoff is the pause after a failed Accept, so a full descriptor
// table does not spin the loop.
const acceptBackoff = 50 * time.Millisecond

// Proxy is a running egress proxy; Close stops it and every tunnel.
type Proxy struct {
	opts   Options
	rule   matcher
	limits Limits
	tcp    net.Listener
	unix   net.Listener
	sock   string

	ctx    context.Context // ends at Close: cancels dials and requests
	cancel context.CancelFunc
	wg     sync.WaitGroup
	slots  chan struct{} // one per open client connection

	conns connSet // every open connection, both sides

	closeOnce sync.Once
	closeErr  error
	stopCtx   func() bool
}

// Start checks the rule, opens the 127.0.0.1 listener (and the unix
// socket when o.SocketDir is set) and serves until Close or until ctx
// ends, whichever comes first.
func Start(ctx context.Context, o Options) (*Proxy, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("%w: %w", ErrClosed, err)
	}
	rule, err := o.Rule.compile()
	if err != nil {
		return nil, err
	}
	if o.Credential.Password == "" {
		o.Credential = newCredential()
	}
	p := &Proxy{opts: o, rule: rule, limits: o.Limits.withDefaults()}
	p.slots = make(chan struct{}, p.limits.MaxConns)
	var lc net.ListenConfig
	if p.tcp, err = lc.Listen(ctx, "tcp", "127.0.0.1:0"); err != nil {
		return nil, fmt.Errorf("open the egress proxy's loopback listener: %w", err)
	}
	if o.SocketDir != "" {
		if err := p.listenUnix(ctx, o.SocketDir); err != nil {
			_ = p.tcp.Close()
			return nil, err
		}
	}
	p.ctx, p.cancel = context.WithCancel(context.Background())
	for _, l := range []net.Listener{p.tcp, p.unix} {
		if l != nil {
			p.wg.Add(1)
			go p.acceptLoop(l)
		}
	}
	p.stopCtx = context.AfterFunc(ctx, func() { _ = p.Close() })
	return p, nil
}

// listenUnix opens the unix socket, 0600, under a fresh name in dir.
func (p *Proxy) listenUnix(ctx context.Context, dir string) error {
	if err := checkSocketDir(dir); err != nil {
		return err
	}
	var b [6]byte
	_, _ = rand.Read(b[:])
	path := filepath.Join(dir, "egress-"+hex.EncodeToString(b[:])+".sock")
	var lc net.ListenConfig
	l, err := lc.Listen(ctx, "unix", path)
	if err != nil {
		return fmt.Errorf("open the egress proxy's unix socket: %w", err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		_ = l.Close()
		return fmt.Errorf("restrict the egress proxy's unix socket: %w", err)
	}
	p.unix, p.sock = l, path
	return nil
}

// Addr is the proxy's 127.0.0.1 TCP address, "127.0.0.1:PORT".
func (p *Proxy) Addr() string { return p.tcp.Addr().String() }

// Credential is what every client must present, on either listener.
func (p *Proxy) Credential() Credential { return p.opts.Credential }

// SocketPath is the proxy's unix socket, or "" without Options.SocketDir.
func (p *Proxy) SocketPath() string { return p.sock }

// Close stops both listeners, closes every open connection and tunnel,
// waits for their goroutines and removes the unix socket.
func (p *Proxy) Close() error {
	p.closeOnce.Do(func() {
		p.stopCtx()
		p.cancel()
		var errs []error
		for _, l := range []net.Listener{p.tcp, p.unix} {
			if l != nil {
				if err := l.Close(); err != nil && !errors.Is(err, net.ErrClosed) {
					errs = append(errs, err)
				}
			}
		}
		p.conns.closeAll()
		p.wg.Wait()
		p.closeErr = errors.Join(errs...)
	})
	return p.closeErr
}

// acceptLoop hands each connection to serveConn while a slot is free and
// closes it at once otherwise.
func (p *Proxy) acceptLoop(l net.Listener) {
	defer p.wg.Done()
	for {
		c, err := l.Accept()
		if err != nil {
			if p.ctx.Err() != nil || errors.Is(err, net.ErrClosed) {
				return
			}
			// Out of descriptors or a like passing trouble: let it pass.
			select {
			case <-time.After(acceptBackoff):
			case <-p.ctx.Done():
				return
			}
			continue
		}
		select {
		case p.slots <- struct{}{}:
		default:
			_ = c.Close()
			continue
		}
		if !p.conns.add(c) {
			<-p.slots
			continue
		}
		p.wg.Add(1)
		go func() {
			defer p.wg.Done()
			defer func() { <-p.slots }()
			defer p.conns.drop(c)
			p.serveConn(c)
		}()
	}
}
