package engine

import (
	"context"
	"errors"
	"fmt"
)

// relistTools lists server's tools once more, for a call that names a
// tool its list lacks, when the server declared that its tools list
// changes (tools.listChanged): the tool may have come since, and its
// notification be still on its way or the refetch it started not done. A
// server that declared no changes is not asked: its list stands. It
// reports whether a fresh list was applied; a list that failed or came
// back partial is left to the refetches (refetch.go).
func (p *listParts) relistTools(ctx context.Context, server string) bool {
	e := p.e
	var conn session
	var gen uint64
	e.ifEntry(server, func(en *entry) {
		c := en.conn.conn
		if c == nil {
			return
		}
		if init := c.Init(); init != nil && init.Capabilities.Tools != nil && init.Capabilities.Tools.ListChanged {
			conn, gen = c, en.st.Gen()
		}
	})
	if conn == nil {
		return false
	}
	lctx, cancel := context.WithTimeout(ctx, e.set.connectTimeout)
	one := p.fetchList(lctx, server, conn.Client(), listTools)
	cancel()
	if one.fatal != nil || len(one.problems) > 0 {
		return false
	}
	applied := false
	e.ifEntry(server, func(en *entry) {
		if en.st.Gen() == gen && en.conn.conn == conn {
			p.applyOneLocked(en, gen, listTools, one)
			applied = true
		}
	})
	if applied {
		e.memory.flush(server)
	}
	return applied
}

// FindTool returns server's tool named tool (its name or exposed name)
// from its current list, listed once more first when the list lacks it
// and the server says its list changes (relistTools). A tool still
// missing is the error a call to it gets (ErrUnknownTool); a server not
// connected, ErrNotConnected.
func (e *Engine) FindTool(ctx context.Context, server, tool string) (Tool, error) {
	find := func() (def Tool, err error) {
		err = e.withEntry(server, func(en *entry) error {
			if _, err := targetLocked(en); err != nil {
				return err
			}
			var ok bool
			if def, ok = en.lists.tool(tool); !ok {
				return unknownToolLocked(e, en, tool)
			}
			return nil
		})
		return def, err
	}
	def, err := find()
	if errors.Is(err, ErrUnknownTool) && e.lists.relistTools(ctx, server) {
		def, err = find()
	}
	return def, err
}

// unknownToolLocked is the error for a call to tool, which en's list
// lacks: the refusal of its tools list when the server refused it,
// otherwise ErrUnknownTool. Callers hold e.mu.
func unknownToolLocked(e *Engine, en *entry, tool string) error {
	server := en.srv.Name
	if refused := toolsRefusedLocked(e, en); refused != nil {
		return &CallError{Message: fmt.Sprintf("call %s on %s: %s", tool, server, refused), Err: refused}
	}
	return &CallError{Message: fmt.Sprintf("server %s has no tool %q", server, tool), Err: ErrUnknownTool}
}
