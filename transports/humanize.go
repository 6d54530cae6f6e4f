package transports

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/url"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// maxHumanLen caps Humanize output: it goes into one status line.
const maxHumanLen = 300

// Humanize turns err into one sentence a person understands, naming the
// address, command or status involved when the error carries it. It never
// returns mcp-go's internal wrapping ("transport error: failed to send
// request: ..."). nil gives "".
func Humanize(err error) string {
	if err == nil {
		return ""
	}
	s := humanize(err)
	var e *Error
	var exit *ExitError
	if errors.As(err, &e) && !errors.As(err, &exit) {
		if last := stderrReason(e.StderrTail); last != "" {
			s += " (stderr: " + last + ")"
		}
	}
	return clip(s)
}

func humanize(err error) string {
	for _, said := range []error{model.ErrWantsHeader, model.ErrHeaderRefused} {
		if errors.Is(err, said) {
			return said.Error() // already the sentence, whatever wraps it (the request's URL)
		}
	}
	if s, ok := humanizeProcess(err); ok {
		return s
	}
	if s, ok := humanizeNet(err); ok {
		return s
	}
	if s, ok := humanizeTLS(err); ok {
		return s
	}
	if s, ok := humanizeRefusal(err); ok {
		return s
	}
	class := Classify(err)
	if class != ClassAuth && class != ClassSessionExpired {
		if s, ok := humanizeStatus(err); ok {
			return s
		}
	}
	switch class {
	case ClassAuth:
		if httpStatus(err) == 403 {
			return "the server refused the request (HTTP 403): your sign-in lacks a permission it needs; sign in again to grant it"
		}
		return "the server needs you to log in (HTTP 401)"
	case ClassSessionExpired:
		return "the server ended the session (it may have restarted); a new session is needed"
	case ClassProtocol:
		if errors.Is(err, transport.ErrLegacySSEServer) {
			return "the server refused a streamable HTTP connection; " + trySSE
		}
		var pe *ProtocolError
		if errors.As(err, &pe) {
			return "the server sent a message that is not valid MCP: " + pe.Reason
		}
		return "the server sent a message that is not valid MCP: " + innermost(err)
	case ClassTimeout:
		var rt *RequestTimeoutError
		if errors.As(err, &rt) {
			return fmt.Sprintf("the server did not answer within %s", rt.After)
		}
		return "the server did not answer in time"
	case ClassCanceled:
		return "the request was cancelled"
	case ClassRPC:
		return "the server answered with an error: " + innermost(err)
	case ClassTooLarge:
		var tl *MessageTooLargeError
		if errors.As(err, &tl) {
			return tl.Error()
		}
	case ClassTerminal:
		if errors.Is(err, ErrNoBuiltin) || errors.Is(err, errors.ErrUnsupported) ||
			errors.Is(err, ErrEditorRefused) || errors.Is(err, ErrNotLoopback) {
			return innermost(err)
		}
	case ClassTransient:
		if errors.Is(err, ErrClosed) {
			return "the connection was closed"
		}
		return "the connection to the server was lost"
	case ClassUnknown, ClassExited:
	}
	return innermost(err)
}

func humanizeProcess(err error) (string, bool) {
	var exit *ExitError
	if errors.As(err, &exit) {
		var s string
		if exit.Signal != "" {
			s = "the server process was killed by signal " + exit.Signal
		} else {
			s = fmt.Sprintf("the server process exited with code %d", exit.Code)
		}
		if last := exit.StderrReason(); last != "" {
			s += ": " + last
		}
		return s, true
	}
	var nf *platform.NotFoundError
	if errors.As(err, &nf) {
		return nf.Error(), true
	}
	var ee *exec.Error
	if errors.As(err, &ee) {
		if errors.Is(ee.Err, exec.ErrNotFound) {
			return fmt.Sprintf("command %q not found on PATH", ee.Name), true
		}
		return fmt.Sprintf("command %q cannot be run: %s", ee.Name, innermost(ee.Err)), true
	}
	var pe *os.PathError
	if errors.As(err, &pe) && (pe.Op == "fork/exec" || pe.Op == "exec") {
		switch {
		case errors.Is(pe.Err, os.ErrNotExist):
			return fmt.Sprintf("command %q does not exist", pe.Path), true
		case errors.Is(pe.Err, os.ErrPermission):
			return fmt.Sprintf("command %q is not executable (permission denied)", pe.Path), true
		}
		return fmt.Sprintf("command %q cannot be run: %s", pe.Path, pe.Err), true
	}
	if pe != nil && pe.Op == "chdir" {
		return fmt.Sprintf("the working directory %q does not exist", pe.Path), true
	}
	return "", false
}

func humanizeNet(err error) (string, bool) {
	addr := errAddr(err)
	at := ""
	if addr != "" {
		at = " at " + addr
	}
	var dns *net.DNSError
	switch {
	case errors.As(err, &dns):
		return fmt.Sprintf("cannot find host %q (DNS lookup failed): check the URL", dns.Name), true
	case platform.IsErrno(err, syscall.ECONNREFUSED):
		return "connection refused" + at + ": is the server running?", true
	case platform.IsErrno(err, syscall.EHOSTUNREACH), platform.IsErrno(err, syscall.ENETUNREACH):
		return "the host" + at + " cannot be reached: check the network or the URL", true
	case platform.IsErrno(err, syscall.ECONNRESET):
		return "the server reset the connection" + at, true
	case platform.IsErrno(err, syscall.EPIPE):
		return "the connection" + at + " broke while sending", true
	case platform.IsErrno(err, syscall.ETIMEDOUT):
		return "the connection" + at + " timed out", true
	case closedIdle(err):
		return "the server" + at + " closed the connection before answering", true
	}
	return "", false
}

// humanizeTLS words a failed TLS handshake: a certificate this machine
// cannot verify, one issued for another name, or a server that does not
// speak TLS at all.
func humanizeTLS(err error) (string, bool) {
	at := ""
	if addr := errAddr(err); addr != "" {
		at = " at " + addr
	}
	var unknown x509.UnknownAuthorityError
	var host x509.HostnameError
	var invalid x509.CertificateInvalidError
	var record tls.RecordHeaderError
	switch {
	case errors.As(err, &unknown):
		return "the certificate of the server" + at + " is not signed by an authority this machine trusts (self-signed?)", true
	case errors.As(err, &host):
		return "the certificate of the server" + at + " is for another name: " + strings.TrimPrefix(host.Error(), "x509: "), true
	case errors.As(err, &invalid):
		return "the certificate of the server" + at + " is not valid: " + strings.TrimPrefix(invalid.Error(), "x509: "), true
	case errors.As(err, &record), strings.Contains(err.Error(), "server gave HTTP response to HTTPS client"): // net/http's words
		return "the server" + at + " does not speak HTTPS: is the URL http://?", true
	}
	return "", false
}

// humanizeStatus renders mcp-go's "request failed with status N: body".
func humanizeStatus(err error) (string, bool) {
	msg := err.Error()
	loc := statusRe.FindStringSubmatchIndex(msg)
	if loc == nil {
		var se *HTTPStatusError
		if errors.As(err, &se) {
			return fmt.Sprintf("the server answered HTTP %d", se.Status), true
		}
		return "", false
	}
	s := "the server answered HTTP " + msg[loc[2]:loc[3]]
	if rest := strings.TrimSpace(strings.TrimPrefix(msg[loc[1]:], ":")); rest != "" {
		s += ": " + rest
	}
	return s, true
}

// errAddr finds the remote address (net.OpError) or host (url.Error) of err.
func errAddr(err error) string {
	var op *net.OpError
	if errors.As(err, &op) && op.Addr != nil {
		return op.Addr.String()
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return u.Host
		}
	}
	return ""
}

// innermost returns the text of err stripped of mcp-go's wrapping prefixes
// ("transport error: failed to send request: failed to send request: ..."),
// however often they repeat: they mean nothing to a person.
func innermost(err error) string {
	s := err.Error()
	for {
		t := strings.TrimPrefix(strings.TrimPrefix(s, "transport error: "), "failed to send request: ")
		if t == s {
			return s
		}
		s = t
	}
}

// clip makes s one printable line of at most maxHumanLen runes: newline,
// CR and tab become spaces, every other textsafe.HiddenRune goes.
func clip(s string) string {
	s = strings.Map(func(r rune) rune {
		if r == '\n' || r == '\r' || r == '\t' {
			return ' '
		}
		if textsafe.HiddenRune(r) {
			return -1
		}
		return r
	}, s)
	return textsafe.Clip(s, maxHumanLen)
}

// httpStatus is the HTTP status carried by err (ours or mcp-go's "request
// failed with status N"), or 0.
func httpStatus(err error) int {
	var se *HTTPStatusError
	if errors.As(err, &se) {
		return se.Status
	}
	if m := statusRe.FindStringSubmatch(err.Error()); m != nil {
		n, _ := strconv.Atoi(m[1])
		return n
	}
	return 0
}
