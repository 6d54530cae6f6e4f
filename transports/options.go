package transports

import (
	"context"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Defaults used when the corresponding Options field is zero.
const (
	// DefaultProtocolVersion is offered first when nothing is remembered.
	DefaultProtocolVersion = mcp.LATEST_PROTOCOL_VERSION
	DefaultRequestTimeout  = 60 * time.Second
	DefaultPingInterval    = 30 * time.Second
	DefaultClientName      = "mcpdeck"
	// MaxMessageSize bounds one message from a server (a stdio line, a
	// websocket message, an HTTP body, one event of an event stream) so a
	// hostile server cannot exhaust our memory.
	MaxMessageSize = 32 << 20
)

// Options configure one Open. The zero value works (no elicitation, no roots,
// default client, no log file).
type Options struct {
	ProtocolVersion           string // the version the server negotiated last time, offered first; default 2026-07-28; cfg.ProtocolVersion pins one instead (see negotiate.go)
	ClientName, ClientVersion string
	Elicit                    func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)     // nil = no capability
	Roots                     func(ctx context.Context) ([]mcp.Root, error)                                             // nil = no capability
	Sample                    func(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) // nil = no capability
	OnNotification            func(mcp.JSONRPCNotification)                                                             // must not block for long
	HTTPClient                *http.Client                                                                              // may be an oauth-wrapped client; nil = default; its Timeout is ignored
	HeaderFunc                func(ctx context.Context) (map[string]string, error)                                      // dynamic headers (headersHelper), called per request
	LogDir                    string                                                                                    // per-server stderr log files; "" = none
	Builtins                  map[string]func() *server.MCPServer                                                       // sdk servers by ServerConfig.Name
	RequestTimeout            time.Duration                                                                             // per HTTP request, default 60 s, not for SSE streams
	PingInterval              time.Duration                                                                             // websocket keepalive, default 30 s; <0 disables
	MaxMessageSize            int                                                                                       // bytes per message from the server, default MaxMessageSize
	DiscoverTimeout           time.Duration                                                                             // wait for a server/discover answer before trying initialize; default mcp-go's 5 s
	// OnFrame receives every JSON-RPC message of the session, both ways,
	// as it passes (tap.go), secrets masked; it runs on the sending or
	// reading goroutine, so it must not block. nil records nothing.
	OnFrame func(Frame)
	// Mask masks OnFrame's bodies: the server's one Masker, of its secret
	// set (model.Server.Secrets). nil masks the patterns alone.
	Mask *textsafe.Masker
	// Launcher starts a stdio server: it finds the program once, judges it
	// by managed policy and starts that very file. The engine passes
	// launch.For(server); the zero value judges by no rules.
	Launcher launch.Launcher
	// OnRefuse hears each connection a sandboxed server's proxy refused
	// (it is in the server's log too); it must not block. nil: the log
	// only.
	OnRefuse func(Refusal)
	// Started, when set, is told the process id of a stdio server as soon
	// as its process runs (the engine's start-up gate watches its CPU use).
	Started func(pid int)

	pinned bool // ProtocolVersion comes from the server's definition
	// socketTables, when set, stands in for /proc/net/tcp{,6} in the
	// check of an editor's port (tests); nil reads the system's.
	socketTables socketTables
}

func (o Options) withDefaults(cfgVersion string) Options {
	if cfgVersion != "" {
		o.ProtocolVersion, o.pinned = cfgVersion, true
	}
	if o.ProtocolVersion == "" {
		o.ProtocolVersion = DefaultProtocolVersion
	}
	if o.ClientName == "" {
		o.ClientName = DefaultClientName
	}
	if o.ClientVersion == "" {
		o.ClientVersion = "dev"
	}
	if o.RequestTimeout <= 0 {
		o.RequestTimeout = DefaultRequestTimeout
	}
	o.MaxMessageSize = o.maxMessage()
	if o.PingInterval == 0 {
		o.PingInterval = DefaultPingInterval
	}
	return o
}
