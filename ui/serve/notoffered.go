package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// offersNo is the answer to a call of a tool or prompt (kind) serve does
// not offer now, saying why when its name is SERVER__NAME of a server
// --servers keeps: the server's state when serve does not offer the
// server (disabled, rejected, awaiting approval, blocked) or offers it
// without that tool while it connects (its definition changed: its old
// lists went with the old definition), the
// permission rule that denies the tool (while a settings file cannot be
// read, every tool is denied), or that the server left the
// configuration (its editor closed). So an agent that called a name it was
// offered before learns why it is gone and what the person can do. why
// reports whether there was such a reason.
func (g *Gateway) offersNo(ctx context.Context, kind, name string) (msg string, why bool) {
	msg = fmt.Sprintf("mcpdeck serve offers no %s %q now", kind, name)
	g.mu.Lock()
	s, ok := g.namedServerLocked(name)
	var denied *engine.Tool
	if ok && g.f.exposes(&s) && kind == "tool" {
		denied = g.deniedToolLocked(&s, name)
	}
	var gone string
	if !ok {
		gone, ok = g.gone.find(name, g.f)
	}
	g.mu.Unlock()
	switch {
	case !ok:
		return msg, false
	case gone != "":
		return msg + ": " + gone, true
	case denied != nil:
		rule := g.eng.DenyRule(denied.ExposedName)
		if rule == "" {
			return msg, false // allowed again meanwhile
		}
		return msg + ": " + textsafe.SanitizeLine(fmt.Sprintf("server %s's tool %s is denied by a permission rule (%s)", s.Name, denied.Name, rule)), true
	case g.f.exposes(&s) && s.State == model.StateConnected:
		return msg, false // offered and connected: the server has no such tool
	}
	// Its state, and a failed or signed-out server is asked to connect
	// again, as for a call of a tool offered.
	var ue *unavailableError
	if err := g.unavailable(ctx, s.Name); errors.As(err, &ue) {
		return msg + ": " + ue.msg, true
	}
	return msg + ": " + stateSentence(&s), true // gone from the engine meanwhile
}

// caughtUpWait bounds how long a call waits for serve to apply the
// engine's latest snapshot (published every 200 ms at most while servers
// change).
const caughtUpWait = 2 * time.Second

// caughtUp waits until serve has applied the engine's snapshot of now,
// lists set in mcp-go included (at most caughtUpWait).
func (g *Gateway) caughtUp(ctx context.Context) {
	want := g.eng.Snapshot().Seq
	limit := time.NewTimer(caughtUpWait)
	defer limit.Stop()
	for {
		g.mu.Lock()
		ch := g.changed // taken first: an apply that ends after closes it
		g.mu.Unlock()
		g.setting.Lock()
		done := g.setSeq >= want
		g.setting.Unlock()
		if done {
			return
		}
		select {
		case <-ch:
		case <-limit.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// namedServerLocked finds the server a name is prefixed with (the longest
// such name, as SERVER__NAME is made by model.ServeName), if --servers
// keeps it. Callers hold g.mu.
func (g *Gateway) namedServerLocked(name string) (engine.ServerSnapshot, bool) {
	var best *engine.ServerSnapshot
	bestLen := 0
	for i := range g.snap.Servers {
		s := &g.snap.Servers[i]
		prefix := model.NormalizeName(s.Name) + "__"
		if len(prefix) > bestLen && strings.HasPrefix(name, prefix) {
			best, bestLen = s, len(prefix)
		}
	}
	if best == nil || !g.f.server(best.Name) {
		return engine.ServerSnapshot{}, false
	}
	return *best, true
}

// deniedToolLocked is s's tool offered as name were it allowed, when a
// permission rule denies it; nil otherwise. Callers hold g.mu.
func (g *Gateway) deniedToolLocked(s *engine.ServerSnapshot, name string) *engine.Tool {
	nameOf := g.f.prefix.namer(g.snap, g.f)
	for i := range s.Tools {
		if t := &s.Tools[i]; t.Denied && nameOf(s.Name, t.Name) == name {
			return t
		}
	}
	return nil
}

// explainNotOffered runs before mcp-go handles a request (its
// OnRequestInitialization hook): a tools/call or prompts/get of a name
// that is not offered and that names a server serve does not offer is
// answered with the server's state instead of mcp-go's "tool not found".
// Anything else goes on to mcp-go untouched.
func (g *Gateway) explainNotOffered(ctx context.Context, _ any, message any) error {
	raw, ok := message.(json.RawMessage)
	if !ok {
		return nil
	}
	var m struct {
		Method string `json:"method"`
		Params struct {
			Name string `json:"name"`
		} `json:"params"`
	}
	if json.Unmarshal(raw, &m) != nil {
		return nil
	}
	// mcp-go answers a name it holds; what it holds is set just after
	// the exposure changes (apply), so that is what counts here.
	var kind string
	var held func() bool
	switch mcp.MCPMethod(m.Method) {
	case mcp.MethodToolsCall:
		kind, held = "tool", func() bool { return g.srv.GetTool(m.Params.Name) != nil }
	case mcp.MethodPromptsGet:
		kind, held = "prompt", func() bool { _, ok := g.srv.ListPrompts()[m.Params.Name]; return ok }
	default:
		return nil
	}
	if held() {
		return nil
	}
	// A call made while serve starts waits for the servers still
	// connecting, as a listing does (mcp-go's BeforeCallTool, which would
	// wait too, comes only after this); any call waits until what serve
	// offers follows the engine's state as of now (a server just
	// connected, a rule just lifted).
	g.start.waitReady(ctx)
	g.caughtUp(ctx)
	if held() {
		return nil
	}
	if msg, why := g.offersNo(ctx, kind, m.Params.Name); why {
		return errors.New(msg)
	}
	return nil
}

// maxGone bounds how many servers that left the configuration are
// remembered (the oldest is forgotten first).
const maxGone = 256

// goneServers remembers the servers that left the configuration while
// serve ran, each with the sentence that says so. Guarded by the
// Gateway's mu.
type goneServers struct {
	why   map[string]string
	order []string // oldest first
}

// note records the servers of old that cur no longer has, and forgets
// the ones cur has again.
func (gs *goneServers) note(old, cur []engine.ServerSnapshot) {
	now := make(map[string]bool, len(cur))
	for i := range cur {
		now[cur[i].Name] = true
		delete(gs.why, cur[i].Name)
	}
	for i := range old {
		s := &old[i]
		if now[s.Name] {
			continue
		}
		why := "server " + s.Name + " is no longer in the configuration"
		if s.Editor != nil {
			why = "server " + s.Name + " is gone: its editor, " + s.Editor.Name + ", closed"
		}
		if gs.why == nil {
			gs.why = map[string]string{}
		}
		gs.why[s.Name] = textsafe.SanitizeLine(why)
		gs.order = append(gs.order, s.Name)
	}
	for len(gs.why) > maxGone || len(gs.order) > 2*maxGone {
		oldest := gs.order[0]
		gs.order = gs.order[1:]
		if _, still := gs.why[oldest]; still && !slices.Contains(gs.order, oldest) {
			delete(gs.why, oldest)
		}
	}
}

// find is the sentence of the gone server a name is prefixed with (the
// longest), if f keeps it.
func (gs *goneServers) find(name string, f filter) (string, bool) {
	best, why := 0, ""
	for s, w := range gs.why {
		prefix := model.NormalizeName(s) + "__"
		if len(prefix) > best && strings.HasPrefix(name, prefix) && f.server(s) {
			best, why = len(prefix), w
		}
	}
	return why, why != ""
}
