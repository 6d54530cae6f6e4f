package ui

import (
	"fmt"
	"hash/fnv"
	"slices"
	"strings"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/contextcost"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// tokenCosts is what each connected server's tool definitions cost in a
// model's context, counted in a Cmd (never in Update) from the snapshot's
// tools, and again whenever they change. Descriptions in snapshots are
// capped, so a server with a cut description shows "≥" (mcpdeck context
// counts the whole definitions).
type tokenCosts struct {
	counter *contextcost.Counter
	done    map[string]tokenCost // by server
	pending map[string]string    // server → fingerprint being counted
	current map[string]string    // server → fingerprint of its tools in the latest snapshot
}

type tokenCost struct {
	fp      string
	tokens  int
	atLeast bool
	disable []string // exposed names of the tools whose denial gets the server under the limit
}

// costMsg is a finished count.
type costMsg struct {
	server string
	cost   tokenCost
}

func newTokenCosts(counter *contextcost.Counter) *tokenCosts {
	if counter == nil {
		counter = &contextcost.Counter{}
	}
	return &tokenCosts{counter: counter, done: map[string]tokenCost{}, pending: map[string]string{}, current: map[string]string{}}
}

// fingerprint changes when a server's tool list does.
func fingerprint(s *engine.ServerSnapshot) string {
	h := fnv.New64a()
	for _, t := range s.Tools {
		fmt.Fprintf(h, "%s\x00%d\x00%d\x00%t\x00", t.Name, len(t.Description), len(t.InputSchema), t.Denied)
	}
	return fmt.Sprintf("%d-%x", len(s.Tools), h.Sum64())
}

// refresh starts a count for every connected server whose tools changed.
func (c *tokenCosts) refresh(servers []engine.ServerSnapshot) tea.Cmd {
	var cmds []tea.Cmd
	clear(c.current)
	for i := range servers {
		s := &servers[i]
		if status.KindOf(s) != status.Connected || len(s.Tools) == 0 {
			continue
		}
		fp := fingerprint(s)
		c.current[s.Name] = fp
		if c.done[s.Name].fp == fp || c.pending[s.Name] == fp {
			continue
		}
		c.pending[s.Name] = fp
		name, tools, counter := s.Name, s.Tools, c.counter // published tool slices are never changed
		cmds = append(cmds, func() tea.Msg { return costMsg{server: name, cost: count(counter, name, fp, tools)} })
	}
	return tea.Batch(cmds...)
}

// count tokenizes the definitions; on a tokenizer error nothing is shown.
func count(counter *contextcost.Counter, server, fp string, tools []engine.Tool) tokenCost {
	out := tokenCost{fp: fp}
	sc := contextcost.ServerCost{}
	exposed := map[string]string{}
	for _, t := range tools {
		if t.Denied {
			continue // agents are not sent a denied tool
		}
		n, err := counter.ToolTokens(contextcost.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema})
		if err != nil {
			return tokenCost{fp: fp, tokens: -1}
		}
		out.tokens += n
		out.atLeast = out.atLeast || strings.HasSuffix(t.Description, textsafe.TruncatedSuffix)
		sc.Tools = append(sc.Tools, contextcost.ToolCost{Name: t.Name, Tokens: n})
		exposed[t.Name] = orDefault(t.ExposedName, model.ToolName(server, t.Name))
	}
	sc.Tokens = out.tokens
	slices.SortStableFunc(sc.Tools, func(a, b contextcost.ToolCost) int { return b.Tokens - a.Tokens })
	for _, t := range contextcost.ToDisable(sc, contextcost.ServerLimit) {
		out.disable = append(out.disable, exposed[t.Name])
	}
	return out
}

// overview is the server's Context line in its overview, "" before a count.
func (c *tokenCosts) overview(s *engine.ServerSnapshot) string {
	label, over := c.label(s)
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

// apply stores a finished count.
func (c *tokenCosts) apply(m costMsg) {
	if c.pending[m.server] == m.cost.fp {
		delete(c.pending, m.server)
	}
	c.done[m.server] = m.cost
}

// label is a server's count for its row, "" when there is none; over is
// set above contextcost.ServerLimit.
func (c *tokenCosts) label(s *engine.ServerSnapshot) (text string, over bool) {
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
