package transports

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"

	"github.com/mcpdeck/mcpdeck/model"
)

// ErrEditorNotYours refuses an editor's port that a process of another
// user holds: the lock file is yours, but whoever listens there now would
// receive its token. Nothing is sent.
var ErrEditorNotYours = errors.New("the editor's port is held by another user's process (or its owner cannot be told): the lock file's token is not sent")

// socketTables reads the kernel's socket tables by name
// ("/proc/net/tcp"); tests give made-up ones.
type socketTables func(name string) ([]byte, error)

// editorDial is dial for an editor's transport: after connecting, and
// before a byte (the token) is sent, the listening socket must belong to
// the user mcpdeck runs as, the owner of every lock file it trusts
// (engine/ide). Where the system does not say who owns a socket
// (ownerKnown), the connection goes ahead: SECURITY.md states the limit.
func editorDial(dial func(ctx context.Context, network, addr string) (net.Conn, error), read socketTables) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		c, err := dial(ctx, network, addr)
		if err != nil || !ownerKnown {
			return c, err
		}
		if err := checkOwner(c, read, os.Getuid()); err != nil {
			_ = c.Close()
			return nil, err
		}
		return c, nil
	}
}

// checkOwner is ErrEditorNotYours unless the socket c reached is owned
// by uid.
func checkOwner(c net.Conn, read socketTables, uid int) error {
	server, ok1 := c.RemoteAddr().(*net.TCPAddr)
	client, ok2 := c.LocalAddr().(*net.TCPAddr)
	if !ok1 || !ok2 {
		return ErrEditorNotYours
	}
	var tables [][]byte
	for _, name := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		if b, err := read(name); err == nil {
			tables = append(tables, b)
		}
	}
	owner, ok := socketOwner(tables, server.AddrPort(), client.AddrPort())
	if !ok {
		return fmt.Errorf("%w (no socket table names it)", ErrEditorNotYours)
	}
	if owner != uid {
		return fmt.Errorf("%w (uid %d holds it)", ErrEditorNotYours, owner)
	}
	return nil
}

// editorHTTPTransport is the transport an editor's connection goes
// through: its own pool, dialing through editorDial. An editor never
// signs in, so no authenticator's client is needed.
func editorHTTPTransport(cfg model.ServerConfig, read socketTables) (*http.Transport, bool) {
	if !cfg.EffectiveType().Info().Editor {
		return nil, false
	}
	if read == nil {
		read = os.ReadFile
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	var d net.Dialer
	tr.DialContext = editorDial(d.DialContext, read)
	return tr, true
}
