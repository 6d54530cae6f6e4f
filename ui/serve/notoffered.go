package serve

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

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
func (rs *routes) offersNo(ctx context.Context, kind, name string) (msg string, why bool) {
	msg = fmt.Sprintf("mcpdeck serve offers no %s %q now", kind, name)
	s, ok, denied, gone := rs.g.lists.named(kind, name)
	switch {
	case !ok:
		return msg, false
	case gone != "":
		return msg + ": " + gone, true
	case denied != nil:
		rule := rs.g.eng.DenyRule(denied.ExposedName)
		if rule == "" {
			return msg, false // allowed again meanwhile
		}
		if len(s.ToolsDeniedBy) > 0 { // no rule: an unreadable file, which leads
			return msg + ": " + textsafe.SanitizeLine(fmt.Sprintf("%s (server %s's tool %s too)", rule, s.Name, denied.Name)), true
		}
		return msg + ": " + textsafe.SanitizeLine(fmt.Sprintf("server %s's tool %s is denied by a permission rule (%s)", s.Name, denied.Name, rule)), true
	case rs.g.f.exposes(&s) && s.State == model.StateConnected:
		return msg, false // offered and connected: the server has no such tool
	}
	// Its state, and a failed or signed-out server is asked to connect
	// again, as for a call of a tool offered.
	var ue *unavailableError
	if err := rs.unavailable(ctx, s.Name); errors.As(err, &ue) {
		return msg + ": " + ue.msg, true
	}
	return msg + ": " + stateSentence(&s), true // gone from the engine meanwhile
}

// explainNotOffered runs before mcp-go handles a request (its
// OnRequestInitialization hook): a tools/call or prompts/get of a name
// that is not offered and that names a server serve does not offer is
// answered with the server's state instead of mcp-go's "tool not found".
// Anything else goes on to mcp-go untouched.
func (rs *routes) explainNotOffered(ctx context.Context, _ any, message any) error {
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
		kind, held = "tool", func() bool { return rs.g.srv.GetTool(m.Params.Name) != nil }
	case mcp.MethodPromptsGet:
		kind, held = "prompt", func() bool { _, ok := rs.g.srv.ListPrompts()[m.Params.Name]; return ok }
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
	rs.g.start.waitReady(ctx)
	rs.g.syncer.caughtUp(ctx)
	if held() {
		return nil
	}
	if msg, why := rs.offersNo(ctx, kind, m.Params.Name); why {
		return errors.New(msg)
	}
	return nil
}

// maxGone bounds how many servers that left the configuration are
// remembered (the oldest is forgotten first).
const maxGone = 256

// goneServers remembers the servers that left the configuration while
// serve ran, each with the sentence that says so. Guarded by lists.mu.
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
