package engine

import (
	"context"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/engine/lifecycle"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// session is what the engine needs from an open connection;
// *transports.Conn provides it. Tests substitute in-process fakes.
type session interface {
	Client() *client.Client
	Init() *mcp.InitializeResult
	Done() <-chan struct{}
	Err() error
	StderrTail(n int) []string
	StderrChanged() <-chan struct{} // nil when there is no stderr
	Close(ctx context.Context) error
	Reinit(ctx context.Context) error
	Ping(ctx context.Context) error
	// Subscribe starts (on) or stops notifications/resources/updated
	// about uri.
	Subscribe(ctx context.Context, uri string, on bool) error
}

// connOptions mirrors transports.Options for one server.
type connOptions struct {
	Elicit         func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)
	Roots          func(ctx context.Context) ([]mcp.Root, error)
	Sample         func(ctx context.Context, req mcp.CreateMessageRequest) (*mcp.CreateMessageResult, error) // nil = not declared
	OnNotification func(mcp.JSONRPCNotification)
	HTTPClient     *http.Client
	HeaderFunc     func(ctx context.Context) (map[string]string, error)
	LogDir         string
	Builtins       map[string]func() *server.MCPServer
	MaxMessageSize int              // bytes per message; 0 = transports.MaxMessageSize
	OnFrame        func(Frame)      // every JSON-RPC message of the connection
	Mask           *textsafe.Masker // the server's, for the frames' bodies
	Launcher       launch.Launcher  // starts a stdio server under the policy it was loaded with
	// ProtocolVersion is the version the server negotiated last time.
	ProtocolVersion string
}

// opener opens and initializes one connection.
type opener func(ctx context.Context, name string, cfg model.ServerConfig, o connOptions) (session, error)

// errorOps classifies and explains transport errors; from transports in
// production.
type errorOps struct {
	classify func(error) (lifecycle.ErrClass, string)
	humanize func(error) string
	exitCode func(error) (int, bool)
	// broke reports an error saying that a request's connection ended
	// under it (transports.Broke).
	broke func(error) bool
}
