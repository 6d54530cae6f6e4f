package registry

import (
	"context"
	"errors"
	"net"
	"net/http"
	"time"
)

// How long the registry is given. A machine that is offline, or a
// registry URL where nothing answers, fails at connectTimeout or
// answerTimeout, well before the whole exchange's reqTimeout.
const (
	// connectTimeout bounds the TCP connection and the TLS handshake.
	connectTimeout = 5 * time.Second
	// answerTimeout bounds the wait for the answer's headers once the
	// request is sent.
	answerTimeout = 10 * time.Second
	// reqTimeout bounds the whole exchange, the answer's body included.
	reqTimeout = 15 * time.Second
)

// ErrUnreachable is a registry that could not be reached: no connection,
// or no answer in time.
var ErrUnreachable = errors.New("registry unreachable")

// UnreachableError is ErrUnreachable for the registry at URL; Err is what
// the network said. Its sentence is the same whatever the cause (refused,
// no such host, no answer): each means the person is offline or the URL
// is wrong, and both have the same remedy.
type UnreachableError struct {
	URL string
	Err error
}

func (e *UnreachableError) Error() string {
	return "could not reach the MCP Registry at " + e.URL + " (offline?); set MCPDECK_REGISTRY_URL to use another"
}

func (e *UnreachableError) Unwrap() []error { return []error{ErrUnreachable, e.Err} }

// dialFunc opens a connection, as net.Dialer.DialContext does.
type dialFunc func(ctx context.Context, network, addr string) (net.Conn, error)

// newHTTPClient is the registry's client: proxies as the environment says,
// connectTimeout to connect (dial and TLS handshake), answerTimeout for
// the answer to begin, reqTimeout in all. dial is the network (tests give
// an in-memory one).
func newHTTPClient(dial dialFunc) *http.Client {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.DialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
		ctx, cancel := context.WithTimeout(ctx, connectTimeout)
		defer cancel()
		return dial(ctx, network, addr)
	}
	tr.TLSHandshakeTimeout = connectTimeout
	tr.ResponseHeaderTimeout = answerTimeout
	return &http.Client{Timeout: reqTimeout, Transport: tr}
}

// unreachable reports whether err, from sending a request or reading its
// answer, means the registry could not be reached: a failed connection
// (refused, no such host, no route) or no answer in time. A certificate
// the machine does not trust, or an answer that is not HTTP, is not: the
// registry was reached, and the error says what is wrong with it.
func unreachable(err error) bool {
	var dns *net.DNSError
	var op *net.OpError
	var ne net.Error
	switch {
	case errors.As(err, &dns):
		return true
	case errors.As(err, &op) && (op.Op == "dial" || op.Op == "proxyconnect"):
		return true
	case errors.As(err, &ne) && ne.Timeout():
		return true
	}
	return errors.Is(err, context.DeadlineExceeded)
}
