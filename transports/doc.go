// Package transports opens initialized MCP sessions over stdio, SSE,
// streamable HTTP, WebSocket and in-process (sdk) transports, and explains
// their failures.
//
// Every Open builds a fresh mcp-go client (never reused across attempts),
// pins the protocol version (so mcp-go skips its 5 s server/discover probe
// against older servers), declares elicitation and roots only when the
// caller handles them, and runs Initialize under the caller's context.
//
// Every transport holds a server to Options.MaxMessageSize (32 MB) per
// message: a stdio line, a websocket message, an HTTP body, one event of an
// event stream (limit.go wraps the bodies mcp-go reads). Going over ends the
// connection with a *MessageTooLargeError (ClassTooLarge) naming the limit.
//
// What each transport gives (and what mcp-go prevents):
//   - stdio: our own process management and JSON-RPC framing (process group,
//     bounded stderr ring and log file, SIGINT→SIGTERM→SIGKILL shutdown, exit
//     detected at once, message size limit, malformed output = protocol error).
//     Server→client requests (elicitation, sampling, roots, ping) are answered.
//     A process that ends on the server/discover probe is started once more
//     with initialize (probe.go).
//   - http (streamable): mcp-go's transport with continuous listening (the
//     standalone GET stream carries list_changed between requests; on a
//     2026-07-28 session, which has no GET stream, a subscriptions/listen
//     request does, and its failing counts like the GET stream's). Requests
//     go through our round tripper: static and dynamic headers, a per-request
//     timeout that stops at the response headers for SSE bodies, loss
//     detection (mcp-go reports no loss for this transport): any request
//     refused or unreachable closes Done at once, and so do three failed
//     reconnects in a row of the GET stream, which mcp-go retries every
//     second. Server→client requests are answered, but mcp-go gives each
//     30 s (its handleIncomingRequest timeout): an elicitation form left open
//     longer is answered with an error.
//   - sse (legacy HTTP+SSE): mcp-go's transport; loss via OnConnectionLost.
//     mcp-go's SSE client drops server→client requests, so sserequests.go
//     takes them out of the event stream and answers them by POST to the
//     session's endpoint: elicitation, sampling and roots work. A cancelled
//     request is followed by notifications/cancelled (mcp-go sends none over
//     HTTP transports; cancelnotify.go). Session expiry cannot
//     be fixed by re-initializing (the session is the stream): Reinit fails
//     with ErrSessionExpired and the caller reconnects.
//   - ws: our own transport on github.com/coder/websocket, subprotocol "mcp",
//     ping keepalive (Options.PingInterval; an unanswered ping closes Done),
//     close handling, message size limit; bidirectional. Headers (static and
//     HeaderFunc) are sent once, on the handshake.
//   - sdk: mcp-go's in-process transport over Options.Builtins[cfg.Name];
//     elicitation and roots go through the in-process session.
//   - ws-ide and sse-ide: an editor's server, opened as ws and sse, to a
//     loopback host only (refused before dialing otherwise, editor.go); the
//     lock file's token is a header of the definition. A handshake the
//     editor refuses is ErrEditorRefused, not a sign-in.
package transports
