package egress

import (
	"errors"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

// ErrBadEntry is hostlist.ErrBadEntry, the error of an entry of the list
// that does not parse; Start returns it wrapped.
var ErrBadEntry = hostlist.ErrBadEntry

// ErrRefused is the error of a destination the rule does not allow; the
// proxy answers it with 403 or SOCKS5 reply 0x02.
var ErrRefused = errors.New("connection refused by the sandbox's host list")

// ErrSocketDir is the error of an Options.SocketDir that other users can
// write: the unix socket inside it must be its owner's alone.
var ErrSocketDir = errors.New("the socket directory is open to other users")

// ErrClosed is the error of Start's context ending before the proxy was
// ready.
var ErrClosed = errors.New("the egress proxy is closed")

// errHeaderTooLarge ends a handshake longer than Limits.MaxHeaderBytes.
var errHeaderTooLarge = errors.New("the request header is too large")
