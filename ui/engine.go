// Package ui is mcpdeck's terminal user interface, a Bubble Tea program drawn
// from the engine's snapshots. Update never does I/O: every engine action runs
// in a tea.Cmd and comes back as a message. Every key is an entry of the
// action table (actiontable.go); the screens of some size live in packages
// of their own (ui/form, ui/addserver, ui/sampling), and the root knows
// them, like its own modals, only through tuikit.Modal.
package ui

import (
	"context"

	"github.com/mcpdeck/mcpdeck/engine"
)

// Engine is the part of *engine.Engine the TUI uses. It exists so that tests
// can drive the TUI with a fake and so that the TUI never reaches into the
// engine's internals.
type Engine interface {
	Updates() <-chan engine.Snapshot
	Snapshot() engine.Snapshot
	Enable(ctx context.Context, name string) error
	Disable(ctx context.Context, name string) error
	ReconnectOutcome(ctx context.Context, name string) (engine.ServerSnapshot, error)
	CancelReconnect(ctx context.Context, name string) error
	Approve(ctx context.Context, name string) error
	ApproveShown(ctx context.Context, shown map[string]string) error
	Reject(ctx context.Context, name string) error
	Authenticate(ctx context.Context, name string) error
	Reload(ctx context.Context) error
	CallTool(ctx context.Context, server, tool string, args map[string]any, progress func(engine.Progress)) (engine.ToolResult, error)
	ReadResource(ctx context.Context, server, uri string) (engine.ResourceResult, error)
	Watch(ctx context.Context, server, uri string) error
	SetToolDenied(ctx context.Context, server, tool string, deny bool) error
	AllowSandboxHost(ctx context.Context, server, host string) error
	Unwatch(ctx context.Context, server, uri string) error
	GetPrompt(ctx context.Context, server, name string, args map[string]string) (engine.PromptResult, error)
	Complete(ctx context.Context, server string, ref engine.CompletionRef, arg, value string, others map[string]string) ([]string, error)
	SetLogLevel(ctx context.Context, server, level string) error
	AcceptPins(ctx context.Context, server string, names []string) error
	Close() error
}
