package status

import (
	"fmt"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Refused says which connections a sandboxed server's proxy refused during
// a request, and how to allow them: a server that was refused usually
// answers only with its own "fetch failed" or "HTTPError 403", which does
// not say the sandbox did it. The hosts come from the proxy's reports
// (engine.Refusal), never from the server's log. "" when none.
func Refused(s *engine.ServerSnapshot, during []engine.Refusal) string {
	var hosts, allow []string
	why := ""
	for _, r := range during {
		h := fmt.Sprintf("%s:%d", r.Host, r.Port)
		if strings.Contains(r.Host, ":") {
			h = fmt.Sprintf("[%s]:%d", r.Host, r.Port)
		}
		hosts = append(hosts, h)
		if r.Allow != "" && !slices.Contains(allow, r.Allow) {
			allow = append(allow, r.Allow)
		}
		if why == "" {
			why = r.Reason
		}
	}
	if len(hosts) == 0 {
		return ""
	}
	out := "the sandbox blocked a connection to " + strings.Join(hosts, ", ")
	if why != "" {
		out += " (" + why + ")"
	}
	if len(allow) > 0 {
		quoted := make([]string, len(allow))
		for i, a := range allow {
			quoted[i] = `"` + a + `"`
		}
		out += "; to allow it, add " + strings.Join(quoted, ", ") + ` to "network" in the server's "sandbox" in ` + s.Source
		if s.Scope == model.ScopeUser || s.Scope == model.ScopeLocal {
			out += " (H in the TUI does it)"
		}
	}
	return textsafe.SanitizeLine(out)
}
