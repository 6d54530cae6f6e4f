package engine

import (
	"errors"
	"os"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// blockers lists every standing reason srv cannot run as configured, most
// decisive first: the definition's (model.Server.Blockers: policy,
// disabled by you, approval, config problems), then a command that cannot
// be found (by find, the one resolver), which does not stop an attempt. It
// searches PATH, so callers do not hold e.mu. Runtime reasons (needs auth,
// last crash) come from the state.
func blockers(srv model.Server, find func(model.ServerConfig) error) []model.Reason {
	out := srv.Blockers()
	if srv.Config.EffectiveType().Info().Program && srv.Config.Command != "" && find != nil {
		if err := find(srv.Config); err != nil {
			missing := platform.IsPath(srv.Config.Command)
			shown := textsafe.NewMasker(srv.Secrets()...).Mask(srv.Config.Command) // expanded: ${VAR}s put their values in it
			out = append(out, model.Reason{Kind: model.ReasonCommandNotFound, Command: shown, Missing: missing})
		}
	}
	return out
}

// ErrCannotRun refuses to connect a server whose definition may not run;
// the error lists the blockers' kinds (ui/status words them).
var ErrCannotRun = errors.New("the server cannot run")

// blockerKinds lists the kinds of bs for an error: "disabled-by-you, …".
func blockerKinds(bs []model.Reason) string {
	kinds := make([]string, len(bs))
	for i, b := range bs {
		kinds[i] = string(b.Kind)
	}
	return strings.Join(kinds, ", ")
}

// programFinder finds a stdio server's program as the launcher will: in
// the server's cwd (relative to cwd) and PATH, through the one resolver.
func programFinder(cwd string, lookupEnv func(string) (string, bool)) func(model.ServerConfig) error {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	return func(cfg model.ServerConfig) error {
		_, err := config.ServerProgram(cfg, cwd, lookupEnv)
		return err
	}
}
