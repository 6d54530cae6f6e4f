package transports

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"

	"github.com/mcpdeck/mcpdeck/model"
)

var (
	// ErrNotLoopback refuses an editor transport whose URL names a host
	// other than this machine's loopback: an editor's server listens only
	// there, and its token must travel nowhere else.
	ErrNotLoopback = errors.New("an editor's server is reached on loopback only (127.0.0.1, ::1 or localhost)")
	// ErrEditorRefused means the editor turned the connection away at the
	// WebSocket handshake: the token from its lock file is not the one it
	// expects, usually because the editor restarted and wrote a new one.
	ErrEditorRefused = errors.New("the editor refused the token from its lock file (did it restart?)")
)

// checkEditorURL refuses, before anything is dialed, an editor transport's
// URL that does not name a loopback host (model.LoopbackHost).
func checkEditorURL(cfg model.ServerConfig) error {
	if !cfg.EffectiveType().Info().Editor {
		return nil
	}
	u, err := url.Parse(cfg.URL)
	if err != nil {
		return fmt.Errorf("%w: the URL does not parse: %w", ErrNotLoopback, err)
	}
	if !model.LoopbackHost(u.Hostname()) {
		return ErrNotLoopback
	}
	return nil
}

// editorRefusal is the error of an editor's handshake answered with
// status: ErrEditorRefused for 401 and 403 (not ErrAuthRequired, which
// would ask the person to sign in to a server that has no sign-in), nil
// for anything else or any other transport.
func editorRefusal(cfg model.ServerConfig, status int) error {
	if !cfg.EffectiveType().Info().Editor || (status != http.StatusUnauthorized && status != http.StatusForbidden) {
		return nil
	}
	return fmt.Errorf("%w (HTTP %d)", ErrEditorRefused, status)
}
