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

// logParts keeps what servers log (notifications/message) and their
// JSON-RPC traffic (traffic.go), and sets the level servers log at.
type logParts struct{ e *Engine }

// logState is what logs keep per server.
type logState struct {
	buf    []LogEntry  // log messages not yet in a snapshot
	timer  *time.Timer // the pending flush of buf
	shown  []LogEntry  // the snapshot's Logs
	errors int         // the snapshot's LogErrors
	// level is the level the person chose for the server's log messages,
	// "" until they choose one.
	level   string
	traffic trafficState
	// refusals are the snapshot's Refusals: replaced, never changed in
	// place, so a snapshot's copy stays its own.
	refusals []Refusal
}

// onMessage keeps a server's log message, masked with the server's
// Masker: it goes to Options.OnLog at once and into the server's snapshot
// (at most every logPublish), the oldest dropped past maxLogEntries.
func (p *logParts) onMessage(server string, n mcp.JSONRPCNotification) {
	e := p.e
	var mask *textsafe.Masker
	e.locked(func() {
		if en := e.byName[server]; en != nil {
			mask = en.mask
		}
	})
	f := n.Params.AdditionalFields
	msg := LogEntry{At: time.Now()}
	msg.Level, _ = f["level"].(string)
	logger, _ := f["logger"].(string)
	msg.Logger = mask.Mask(logger)
	switch d := f["data"].(type) {
	case string:
		msg.Data = d
	default:
		if b, err := json.Marshal(d); err == nil {
			msg.Data = string(b)
		}
	}
	// Masked before the cut (reading as far as a secret could reach past
	// it), so no secret is kept by being cut in two.
	long := len(msg.Data) > maxLogData
	msg.Data = mask.Mask(msg.Data[:min(len(msg.Data), maxLogData+mask.Longest())])
	if long {
		msg.Data = msg.Data[:min(len(msg.Data), maxLogData)] + "…"
	}
	if LogLevelRank(msg.Level) < 0 {
		msg.Level = "info"
	}
	if cb := e.opts.OnLog; cb != nil {
		cb(server, msg)
	}
	e.ifEntry(server, func(en *entry) {
		l := &en.logs
		l.buf = append(l.buf, msg)
		if l.timer == nil {
			l.timer = time.AfterFunc(logPublish, func() { p.flush(server) })
		}
	})
}

// flush moves the buffered entries of server into its snapshot and
// publishes: one copy of the list per logPublish, however chatty the server.
func (p *logParts) flush(server string) {
	p.e.ifEntry(server, func(en *entry) {
		l := &en.logs
		l.timer = nil
		buf := l.buf
		l.buf = nil
		keep := max(0, min(len(l.shown), maxLogEntries-len(buf)))
		logs := make([]LogEntry, 0, keep+len(buf))
		logs = append(logs, l.shown[len(l.shown)-keep:]...)
		logs = append(logs, buf[max(0, len(buf)-maxLogEntries):]...)
		for _, x := range buf {
			if LogLevelRank(x.Level) >= LogLevelRank("error") {
				l.errors++
			}
		}
		l.shown = logs
		p.e.publishLocked()
	})
}

// SetLogLevel asks server to send log messages at or above level
// (logging/setLevel). It does nothing for a server that does not advertise
// logging, or on protocol 2026-07-28, which has no such request (a level
// travels with each request there).
func (e *Engine) SetLogLevel(ctx context.Context, server, level string) error {
	return e.logs.setLevel(ctx, server, level)
}

// setLevel runs SetLogLevel.
func (p *logParts) setLevel(ctx context.Context, server, level string) error {
	e := p.e
	if LogLevelRank(level) < 0 {
		return fmt.Errorf("%w: unknown log level %q", ErrInvalidArguments, level)
	}
	var t callTarget
	err := e.withEntry(server, func(en *entry) (err error) {
		en.logs.level = level // sent with every request on 2026-07-28 (withLogLevel)
		t, err = targetLocked(en)
		return err
	})
	if err != nil {
		return err
	}
	init := t.conn.Init()
	if init == nil || init.Capabilities.Logging == nil || init.ProtocolVersion >= mcp.ProtocolVersion20260728 {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	c := e.calls
	err = c.do(ctx, t, func(s session) error {
		req := mcp.SetLevelRequest{}
		req.Params.Level = mcp.LoggingLevel(level)
		return s.Client().SetLevel(ctx, req) //nolint:staticcheck // deprecated for 2026-07-28, which this skips (above); older servers have it
	})
	if err != nil {
		return c.callError(ctx, server, "setting the log level", err)
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
