package model

import (
	"errors"
	"net/netip"
	"slices"
	"strings"
)

// Transport names how mcpdeck talks to a server, as a definition's "type"
// writes it. What depends on the transport (is it remote, does it sign in,
// does it start a program, how it opens) is a column of its row in the
// transport table (Info); no other package decides by the name.
type Transport string

// The transports mcpdeck speaks; each has a row in transportTable.
const (
	TransportStdio Transport = "stdio"
	TransportSSE   Transport = "sse"
	TransportHTTP  Transport = "http"
	TransportWS    Transport = "ws"
	TransportSDK   Transport = "sdk" // in-process, built into mcpdeck
	// An editor's MCP server on loopback, found through its lock file
	// (engine/ide): over WebSocket with the lock file's token, or over the
	// legacy SSE transport with none.
	TransportWSIDE  Transport = "ws-ide"
	TransportSSEIDE Transport = "sse-ide"
)

// Opening is how the transports factory opens a connection of a transport:
// one open function in package transports per value.
type Opening int

// The ways to open a connection.
const (
	OpenNone      Opening = iota // not a transport mcpdeck knows
	OpenProcess                  // start the server's program, speak over its stdin and stdout
	OpenSSE                      // the legacy HTTP+SSE transport: a GET event stream, POSTs to the endpoint it names
	OpenHTTP                     // streamable HTTP
	OpenWebSocket                // one JSON-RPC message per WebSocket frame
	OpenInProcess                // one of mcpdeck's built-in servers
)

// TransportInfo is one row of the transport table: every fact about a
// transport that some package decides by.
type TransportInfo struct {
	// Name is the transport as a definition's "type" writes it.
	Name Transport
	// Aliases are other names other tools' configurations write for it,
	// compared without case (model/imports reads them).
	Aliases []string
	// Opens is how transports.Factory opens it.
	Opens Opening
	// Program: mcpdeck starts a program for it (command, args, env, and
	// the cwd it runs in), found by the one resolver and judged by
	// serverCommand policy rules.
	Program bool
	// Builtin: one of mcpdeck's own servers, chosen by the definition's
	// "name".
	Builtin bool
	// Remote: reached over the network at the definition's url, whose
	// scheme is one of Schemes. Remote servers connect in their own batch,
	// are judged by serverUrl policy rules and are the same server when
	// their URLs are.
	Remote  bool
	Schemes []string
	// PathHint is a segment of a URL's path that names this transport when
	// only a URL is given ("…/sse"); "" for none.
	PathHint string
	// Headers: it sends HTTP headers, the definition's headers and
	// headersHelper's, through the authenticator's client (its tokens and
	// its redirect guard).
	Headers bool
	// OAuth: the person may sign in to it with OAuth 2.1.
	OAuth bool
	// Addable: a person adds it (mcp add -t, imports from other tools);
	// built-in servers are mcpdeck's own.
	Addable bool
	// Editor: an editor's own MCP server, found through the lock file it
	// writes. Its URL must name a loopback host (LoopbackHost): the
	// transports refuse any other before dialing.
	Editor bool
	// TokenHeader is the HTTP header the lock file's authToken travels in;
	// "" when the transport sends none.
	TokenHeader string
	// LockWord is the "transport" an editor's lock file writes for it
	// (EditorTransport).
	LockWord string
}

// httpSchemes are the URL schemes of the transports that speak plain HTTP.
var httpSchemes = []string{"http", "https"}

// transportTable is the one home of every transport fact, in the order
// messages list the transports.
var transportTable = [...]TransportInfo{
	{Name: TransportStdio, Opens: OpenProcess, Program: true, Addable: true},
	{
		Name: TransportSSE, Opens: OpenSSE, Remote: true, Schemes: httpSchemes, PathHint: "sse",
		Headers: true, OAuth: true, Addable: true,
	},
	{
		Name: TransportHTTP, Aliases: []string{"streamable-http", "streamablehttp"}, Opens: OpenHTTP,
		Remote: true, Schemes: httpSchemes, Headers: true, OAuth: true, Addable: true,
	},
	{
		Name: TransportWS, Aliases: []string{"websocket"}, Opens: OpenWebSocket,
		Remote: true, Schemes: []string{"ws", "wss"}, Headers: true, Addable: true,
	},
	{Name: TransportSDK, Opens: OpenInProcess, Builtin: true},
	{
		Name: TransportWSIDE, Opens: OpenWebSocket, Remote: true, Schemes: []string{"ws"},
		Editor: true, TokenHeader: "x-claude-code-ide-authorization", LockWord: "ws",
	},
	{Name: TransportSSEIDE, Opens: OpenSSE, Remote: true, Schemes: []string{"http"}, Editor: true, LockWord: "sse"},
}

// EditorTransport is the transport of an editor's lock file whose
// "transport" is word; a lock file that writes none is from before the
// field existed, when editors spoke SSE. False for a word no row has.
func EditorTransport(word string) (TransportInfo, bool) {
	if word == "" {
		return TransportSSEIDE.Info(), true
	}
	for _, ti := range transportTable {
		if ti.Editor && ti.LockWord == word {
			return ti, true
		}
	}
	return TransportInfo{}, false
}

// LoopbackHost reports whether host (a URL's host, without port or
// brackets) names this machine's loopback interface: "localhost" or an
// address in 127.0.0.0/8 or ::1. Editors listen only there, and mcpdeck
// reaches an editor's server nowhere else.
func LoopbackHost(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip, err := netip.ParseAddr(host)
	return err == nil && ip.Zone() == "" && ip.Unmap().IsLoopback()
}

// ErrNoSignIn: the server's transport has no sign-in (its row's OAuth is
// false); callers say which server and transport.
var ErrNoSignIn = errors.New("sign-in (OAuth) applies to " +
	TransportNames(func(t TransportInfo) bool { return t.OAuth }, "and") + " servers only")

// Info is t's row of the transport table; for a transport mcpdeck does not
// know, a row with only its Name (Opens is OpenNone, every fact false).
func (t Transport) Info() TransportInfo {
	for _, ti := range transportTable {
		if ti.Name == t {
			return ti
		}
	}
	return TransportInfo{Name: t}
}

// Transports lists the table's rows, in the order messages name them.
func Transports() []TransportInfo { return slices.Clone(transportTable[:]) }

// LookupTransport finds the transport a configuration names, by its name
// or an alias, in any case.
func LookupTransport(name string) (TransportInfo, bool) {
	for _, ti := range transportTable {
		if strings.EqualFold(name, string(ti.Name)) {
			return ti, true
		}
		for _, a := range ti.Aliases {
			if strings.EqualFold(name, a) {
				return ti, true
			}
		}
	}
	return TransportInfo{}, false
}

// TransportNames lists the names of the transports keep admits for a
// sentence, the last joined with conj: "sse and http", "stdio, sse, http,
// ws or sdk".
func TransportNames(keep func(TransportInfo) bool, conj string) string {
	var names []string
	for _, ti := range transportTable {
		if keep(ti) {
			names = append(names, string(ti.Name))
		}
	}
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " " + conj + " " + names[len(names)-1]
}
