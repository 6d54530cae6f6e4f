// Package tokencosts is what each connected server's tool definitions
// cost in a model's context, as the server list and the overview show it:
// counted in Cmds, one server at a time, never in Update.
package tokencosts

import (
	"cmp"
	"fmt"
	"hash/fnv"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// Costs is what each connected server's tool definitions cost in a
// model's context, counted in a Cmd (never in Update) from the snapshot's
// tools, and again whenever they change. Descriptions in snapshots are
// capped, so a server with a cut description shows "≥" (mcpdeck context
// counts the whole definitions).
//
// Counting is the TUI's least urgent work: it waits until no server is
// connecting (the tokenizer's load and the counts would compete with the
// servers' starts), then counts one server at a time, yielding between
// tools, so at most one server's definitions are being encoded at once.
// Once nothing is left to count the tokenizer (30 MB) is let go: a TUI at
// rest keeps only the counts, and a new list loads it again.
type Costs struct {
	counter *contextcost.Counter
	loaded  bool                     // a count ran since the tokenizer was last let go
	done    map[string]tokenCost     // by server
	current map[string]string        // server → fingerprint of its tools in the latest snapshot
	due     map[string][]engine.Tool // servers whose tools are still to count, by name
	queue   []string                 // the names in due, oldest first
	running string                   // the server being counted, "" when none
	runFP   string                   // the fingerprint of the tools being counted
	settled bool                     // no server was connecting in the latest snapshot
	prints  map[string]toolsPrint    // server → its tools' fingerprint, kept while the slice is the same
}

// toolsPrint is the fingerprint of one published tool slice (which is
// never changed: a new list is a new slice), so a snapshot with the same
// tools costs no hashing.
type toolsPrint struct {
	first *engine.Tool
	n     int
	fp    string
}

type tokenCost struct {
	fp      string
	tokens  int
	atLeast bool
	disable []string // exposed names of the tools whose denial gets the server under the limit
}

// Msg is a finished count, for Apply.
type Msg struct {
	server string
	cost   tokenCost
}

// Server is the server counted.
func (m Msg) Server() string { return m.server }

// New counts with counter (nil: a new one).
func New(counter *contextcost.Counter) *Costs {
	if counter == nil {
		counter = &contextcost.Counter{}
	}
	return &Costs{counter: counter, done: map[string]tokenCost{}, current: map[string]string{}, due: map[string][]engine.Tool{}, prints: map[string]toolsPrint{}}
}

// fingerprint changes when a server's tool list does.
func fingerprint(s *engine.ServerSnapshot) string {
	h := fnv.New64a()
	for _, t := range s.Tools {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%t\x00", t.Name, len(t.Description), len(t.InputSchema), t.Denied)
	}
	return fmt.Sprintf("%d-%x", len(s.Tools), h.Sum64())
}

// Refresh notes every connected server whose tools changed as due, and
// starts the next count once no server is connecting.
func (c *Costs) Refresh(servers []engine.ServerSnapshot) tea.Cmd {
	clear(c.current)
	c.settled = true
	for i := range servers {
		s := &servers[i]
		if connecting(s) {
			c.settled = false
		}
		if status.KindOf(s) != status.Connected || len(s.Tools) == 0 {
			continue
		}
		fp := c.print(s)
		c.current[s.Name] = fp
		if c.done[s.Name].fp == fp || (c.running == s.Name && c.runFP == fp) {
			delete(c.due, s.Name)
			continue
		}
		if _, queued := c.due[s.Name]; !queued {
			c.queue = append(c.queue, s.Name)
		}
		c.due[s.Name] = s.Tools // published tool slices are never changed
	}
	for name := range c.prints {
		if _, ok := c.current[name]; !ok {
			delete(c.prints, name) // no longer connected: its slice is let go
		}
	}
	return c.next()
}

// print is s's fingerprint, hashed again only for a new tool slice.
func (c *Costs) print(s *engine.ServerSnapshot) string {
	p := c.prints[s.Name]
	if p.first != &s.Tools[0] || p.n != len(s.Tools) {
		p = toolsPrint{first: &s.Tools[0], n: len(s.Tools), fp: fingerprint(s)}
		c.prints[s.Name] = p
	}
	return p.fp
}

// connecting reports whether s is on its way to connecting now (not
// waiting for a retry, for approval or for sign-in).
func connecting(s *engine.ServerSnapshot) bool {
	return status.KindOf(s) == status.Pending && !status.RetryWaits(s)
}

// next starts counting the oldest due server, unless a count runs or a
// server is connecting; with nothing left to count it lets the tokenizer
// go.
func (c *Costs) next() tea.Cmd {
	if c.running != "" {
		return nil
	}
	if !c.settled {
		return c.release()
	}
	for len(c.queue) > 0 {
		name := c.queue[0]
		c.queue = c.queue[1:]
		tools, ok := c.due[name]
		fp, current := c.current[name]
		if !ok || !current {
			delete(c.due, name)
			continue // gone, or no longer connected
		}
		delete(c.due, name)
		c.running, c.runFP, c.loaded = name, fp, true
		counter := c.counter
		return func() tea.Msg { return Msg{server: name, cost: count(counter, name, fp, tools)} }
	}
	c.queue = nil // let the backing array go
	return c.release()
}

// release lets the tokenizer go, in a Cmd (returning its memory to the
// system is a garbage collection), when a count loaded it and none is
// due.
func (c *Costs) release() tea.Cmd {
	if !c.loaded || len(c.queue) > 0 {
		return nil
	}
	c.loaded = false
	counter := c.counter
	return func() tea.Msg {
		if counter.Release() {
			debug.FreeOSMemory()
		}
		return nil
	}
}

// count tokenizes the definitions; on a tokenizer error nothing is shown.
func count(counter *contextcost.Counter, server, fp string, tools []engine.Tool) tokenCost {
	defer counter.Hold()() // no release between two tools
	out := tokenCost{fp: fp}
	sc := contextcost.ServerCost{}
	exposed := map[string]string{}
	for _, t := range tools {
		if t.Denied {
			continue // agents are not sent a denied tool
		}
		runtime.Gosched() // the least urgent work: let anything waiting run first
		n, err := counter.ToolTokens(contextcost.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		if err != nil {
			return tokenCost{fp: fp, tokens: -1}
		}
		out.tokens += n
		out.atLeast = out.atLeast || strings.HasSuffix(t.Description, textsafe.TruncatedSuffix)
		sc.Tools = append(sc.Tools, contextcost.ToolCost{Name: t.Name, Tokens: n})
		exposed[t.Name] = cmp.Or(t.ExposedName, model.ToolName(server, t.Name))
	}
	sc.Tokens = out.tokens
	slices.SortStableFunc(sc.Tools, func(a, b contextcost.ToolCost) int { return b.Tokens - a.Tokens })
	for _, t := range contextcost.ToDisable(sc, contextcost.ServerLimit) {
		out.disable = append(out.disable, exposed[t.Name])
	}
	return out
}

// Overview is the server's Context line in its overview, "" before a count.
func (c *Costs) Overview(s *engine.ServerSnapshot) string {
	label, over := c.Label(s)
	if label == "" {
		return ""
	}
	line := label + " in a model's context for its enabled tools (" + contextcost.Encoding + " estimate)"
	if over {
		d := c.done[s.Name].disable
		shown := d[:min(len(d), 5)]
		more := ""
		if n := len(d) - len(shown); n > 0 {
			more = fmt.Sprintf(" and %d more", n)
		}
		line += fmt.Sprintf("; over %d: deny %s%s (D on a tool in Tools) to get under", contextcost.ServerLimit, strings.Join(shown, ", "), more)
	}
	return line
}

// Apply stores a finished count and starts the next.
func (c *Costs) Apply(m Msg) tea.Cmd {
	if c.running == m.server {
		c.running = ""
	}
	c.done[m.server] = m.cost
	return c.next()
}

// Label is a server's count for its row, "" when there is none; over is
// set above contextcost.ServerLimit.
func (c *Costs) Label(s *engine.ServerSnapshot) (text string, over bool) {
	if c == nil || status.KindOf(s) != status.Connected {
		return "", false
	}
	cost, ok := c.done[s.Name]
	if !ok || cost.tokens < 0 || cost.fp != c.current[s.Name] {
		return "", false
	}
	prefix := "~"
	if cost.atLeast {
		prefix = "≥"
	}
	n := float64(cost.tokens)
	switch {
	case cost.tokens >= 10000:
		text = fmt.Sprintf("%s%.0fk tokens", prefix, n/1000)
	case cost.tokens >= 1000:
		text = fmt.Sprintf("%s%.1fk tokens", prefix, n/1000)
	default:
		text = fmt.Sprintf("%s%d tokens", prefix, cost.tokens)
	}
	return text, cost.tokens > contextcost.ServerLimit
}
