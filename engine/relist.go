package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine/callerr"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
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

// maxCollisionNames bounds how many other tools a collision names.
const maxCollisionNames = 3

// markCollisions sets each tool's Collision when another tool (of
// another server, or of the same one) has the same exposed name: an agent
// reaching tools by exposed name would get only one of them. It runs when
// tool lists changed (toolsDirty), not on every publish. Tool slices are
// shared with published snapshots, so a changed list is copied, never
// edited in place. Callers hold e.mu.
func markCollisions(order []*entry) {
	owners := map[string][]string{}
	for _, en := range order {
		for _, t := range en.lists.tools {
			owners[t.ExposedName] = append(owners[t.ExposedName], en.srv.Name+"/"+t.Name)
		}
	}
	for _, en := range order {
		var out []Tool
		for i, t := range en.lists.tools {
			want := collisionText(owners[t.ExposedName], en.srv.Name+"/"+t.Name)
			if want == t.Collision {
				continue
			}
			if out == nil {
				out = slices.Clone(en.lists.tools)
			}
			out[i].Collision = want
		}
		if out != nil {
			en.lists.tools = out
		}
	}
}

// collisionText names the tools other than self that share an exposed
// name ("server/tool"), "" when there are none.
func collisionText(owners []string, self string) string {
	if len(owners) < 2 {
		return ""
	}
	others := make([]string, 0, len(owners)-1)
	skipped := false
	for _, o := range owners {
		if o == self && !skipped {
			skipped = true
			continue
		}
		others = append(others, o)
	}
	more := ""
	if len(others) > maxCollisionNames {
		more = fmt.Sprintf(" and %d more", len(others)-maxCollisionNames)
		others = others[:maxCollisionNames]
	}
	return "the same exposed name as " + strings.Join(others, ", ") + more
}

// missingScopeLocked returns a *callerr.ScopeError when the Authenticator knows
// scopes the server refused en's requests for; nil otherwise. Callers hold
// e.mu (the lookup is in memory).
func missingScopeLocked(e *Engine, en *entry) error {
	sr, ok := e.opts.Auth.(ScopeReporter)
	if !ok || en == nil {
		return nil
	}
	if s := sr.MissingScopes(en.srv); len(s) > 0 {
		return &callerr.ScopeError{Server: en.srv.Name, Scopes: s}
	}
	return nil
}

// toolsRefusedLocked explains a tool missing from a tools list that the
// server refused to give for lack of authorization: that is the failure to
// report, not "no such tool". nil when the list was not refused.
func toolsRefusedLocked(e *Engine, en *entry) error {
	if en.lists.toolsAuthErr == nil {
		return nil
	}
	if err := missingScopeLocked(e, en); err != nil {
		return err
	}
	return fmt.Errorf("server %s refused to list its tools: %s; run mcpdeck auth %s",
		en.srv.Name, e.errs.text(en, en.lists.toolsAuthErr), textsafe.QuoteArg(en.srv.Name))
}
