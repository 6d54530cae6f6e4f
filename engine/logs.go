package engine

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// LogEntry is one message a server logged (notifications/message).
type LogEntry struct {
	At     time.Time `json:"at"`
	Level  string    `json:"level"`            // debug … emergency
	Logger string    `json:"logger,omitempty"` // the server's own logger name
	Data   string    `json:"data"`             // text, or the data as JSON
}

// Bounds on what a server's logs may cost: entries kept per server, bytes
// of one entry's data, and how often new entries reach a snapshot.
const (
	maxLogEntries = 1000
	maxLogData    = 4096
	logPublish    = 200 * time.Millisecond
)

// logLevels are MCP's levels, lowest first.
var logLevels = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// LogLevelRank orders a level among logLevels (-1 for an unknown one), so
// callers can filter at or above a level.
func LogLevelRank(level string) int { return slices.Index(logLevels, level) }

// onLogMessage keeps a server's log message, masked with the server's
// Masker: it goes to Options.OnLog at once and into the server's snapshot
// (at most every logPublish), the oldest dropped past maxLogEntries.
func (e *Engine) onLogMessage(server string, n mcp.JSONRPCNotification) {
	e.mu.Lock()
	var mask *textsafe.Masker
	if en := e.byName[server]; en != nil {
		mask = en.mask
	}
	e.mu.Unlock()
	f := n.Params.AdditionalFields
	entry := LogEntry{At: time.Now()}
	entry.Level, _ = f["level"].(string)
	logger, _ := f["logger"].(string)
	entry.Logger = mask.Mask(logger)
	switch d := f["data"].(type) {
	case string:
		entry.Data = d
	default:
		if b, err := json.Marshal(d); err == nil {
			entry.Data = string(b)
		}
	}
	// Masked before the cut (reading as far as a secret could reach past
	// it), so no secret is kept by being cut in two.
	long := len(entry.Data) > maxLogData
	entry.Data = mask.Mask(entry.Data[:min(len(entry.Data), maxLogData+mask.Longest())])
	if long {
		entry.Data = entry.Data[:min(len(entry.Data), maxLogData)] + "…"
	}
	if LogLevelRank(entry.Level) < 0 {
		entry.Level = "info"
	}
	if cb := e.opts.OnLog; cb != nil {
		cb(server, entry)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if e.closed || en == nil {
		return
	}
	en.logBuf = append(en.logBuf, entry)
	if en.logTimer == nil {
		en.logTimer = time.AfterFunc(logPublish, func() { e.flushLogs(server) })
	}
}

// flushLogs moves the buffered entries of server into its snapshot and
// publishes: one copy of the list per logPublish, however chatty the server.
func (e *Engine) flushLogs(server string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if e.closed || en == nil {
		return
	}
	en.logTimer = nil
	buf := en.logBuf
	en.logBuf = nil
	keep := max(0, min(len(en.s.Logs), maxLogEntries-len(buf)))
	logs := make([]LogEntry, 0, keep+len(buf))
	logs = append(logs, en.s.Logs[len(en.s.Logs)-keep:]...)
	logs = append(logs, buf[max(0, len(buf)-maxLogEntries):]...)
	for _, l := range buf {
		if LogLevelRank(l.Level) >= LogLevelRank("error") {
			en.s.LogErrors++
		}
	}
	en.s.Logs = logs
	e.publishLocked()
}

// SetLogLevel asks server to send log messages at or above level
// (logging/setLevel). It does nothing for a server that does not advertise
// logging, or on protocol 2026-07-28, which has no such request (a level
// travels with each request there).
func (e *Engine) SetLogLevel(ctx context.Context, server, level string) error {
	if LogLevelRank(level) < 0 {
		return fmt.Errorf("%w: unknown log level %q", ErrInvalidArguments, level)
	}
	e.mu.Lock()
	if en := e.byName[server]; en != nil {
		en.logLevel = level // sent with every request on 2026-07-28 (withLogLevel)
	}
	t, _, err := e.connected(server)
	e.mu.Unlock()
	if err != nil {
		return err
	}
	init := t.conn.Init()
	if init == nil || init.Capabilities.Logging == nil || init.ProtocolVersion >= mcp.ProtocolVersion20260728 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	err = e.do(ctx, t, func(c session) error {
		req := mcp.SetLevelRequest{}
		req.Params.Level = mcp.LoggingLevel(level)
		return c.Client().SetLevel(ctx, req) //nolint:staticcheck // deprecated for 2026-07-28, which this skips (above); older servers have it
	})
	if err != nil {
		return e.callError(ctx, server, "setting the log level", err)
	}
	return nil
}

// withLogLevel adds the person's log level to a request's _meta on a
// 2026-07-28 session, where it replaces logging/setLevel; m is copied,
// never changed.
func (t callTarget) withLogLevel(m *mcp.Meta) *mcp.Meta {
	if t.logLevel == "" {
		return m
	}
	init := t.conn.Init()
	if init == nil || !mcp.IsModernProtocol(init.ProtocolVersion) {
		return m
	}
	out := &mcp.Meta{}
	if m != nil {
		cp := *m
		out = &cp
		out.AdditionalFields = maps.Clone(m.AdditionalFields)
	}
	out.SetLogLevel(mcp.LoggingLevel(t.logLevel))
	return out
}
