package doctor

import (
	"encoding/json"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// bundleConfig is config.json: the merged configuration, each server with
// the scope and file it came from and the definitions it overrides, as
// written with its secrets masked (model.Redact).
type bundleConfig struct {
	Files       []string            `json:"files"` // every config file consulted, existing or not
	ProjectRoot string              `json:"projectRoot"`
	Enterprise  bool                `json:"enterprise,omitempty"`
	Problems    []model.Problem     `json:"problems,omitempty"`
	Servers     []bundleServer      `json:"servers"`
	Suppressed  []config.Suppressed `json:"suppressed,omitempty"`
}

type bundleServer struct {
	Name       string               `json:"name"`
	Scope      model.Scope          `json:"scope"`
	Source     string               `json:"source"`
	Overrides  []model.Origin       `json:"overrides,omitempty"`
	Definition model.ServerConfig   `json:"definition"`
	Hash       string               `json:"hash"`
	Enabled    bool                 `json:"enabled"`
	Approval   model.Approval       `json:"approval"`
	Policy     model.PolicyDecision `json:"policy"`
	Problems   []model.Problem      `json:"problems,omitempty"`
}

// addConfig adds config.json. The values model.Redact hides count as
// masked: the document built from the definitions as written holds them.
func (b *bundle) addConfig(res *config.Resolved) {
	doc := func(def func(model.Server) model.ServerConfig) bundleConfig {
		c := bundleConfig{Files: res.Files, ProjectRoot: res.ProjectRoot, Enterprise: res.Enterprise, Problems: res.Problems, Suppressed: res.Suppressed}
		for _, s := range res.Servers {
			c.Servers = append(c.Servers, bundleServer{
				Name: s.Name, Scope: s.Scope, Source: s.Source, Overrides: s.Overrides, Definition: def(s), Hash: s.Hash,
				Enabled: s.Enabled, Approval: s.Approval, Policy: s.Policy, Problems: s.Problems,
			})
		}
		return c
	}
	redacted := doc(func(s model.Server) model.ServerConfig { return model.Redact(s.Raw) })
	hidden := maskedIn(redacted) - maskedIn(doc(func(s model.Server) model.ServerConfig { return s.Raw }))
	b.addJSON("config.json", redacted, max(hidden, 0))
}

// maskedIn counts Masked in v's JSON.
func maskedIn(v any) int {
	data, err := json.Marshal(v)
	if err != nil {
		return 0
	}
	return strings.Count(string(data), textsafe.Masked)
}

// bundleState is a server's state.json: its snapshot as `mcp list --json`
// has it (state, reason, errors, lists, log messages, history), without
// the stderr tail, which has its own file.
type bundleState struct {
	Server             engine.ServerSnapshot `json:"server"`
	TrafficFramesKept  int                   `json:"trafficFramesKept"`
	TrafficFramesLetGo int                   `json:"trafficFramesLetGo,omitempty"`
}

func (b *bundle) addState(name string, srv engine.ServerSnapshot, kept, dropped int) {
	srv.StderrTail, srv.Written = nil, nil
	b.addJSON(name, bundleState{Server: srv, TrafficFramesKept: kept, TrafficFramesLetGo: dropped}, 0)
}

// addTraffic adds a server's frames as JSON lines, the --trace format
// (clicore.TraceJSON, escaped alike). Bodies were masked when recorded; they are
// masked again here with every stored secret as well.
func (b *bundle) addTraffic(name, server string, frames []engine.Frame) {
	lines := make([]string, 0, len(frames))
	for _, f := range frames {
		b.masked += f.Masked
		var n int
		f.Body, n = b.mask.Dump(f.Body)
		b.masked += n
		data, err := clicore.TraceJSON(server, f)
		if err != nil {
			continue
		}
		lines = append(lines, string(data))
	}
	masked := b.add(name, strings.Join(lines, "\n"))
	b.noteUnknown(name, strings.Split(masked, "\n"), "frame")
}
