package mcpcmd

import (
	"fmt"
	"io"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// boxView is the sandbox a server would run in on this machine now
// (launch.ExplainServer): nil View for a server without one; Err when it
// could not be worked out.
type boxView struct {
	View *sandbox.View
	Err  error
}

// explainSandbox works out s's sandbox with project as the project's
// root. ask lets it ask a version manager about a shim (which starts the
// manager's query, sandboxed): never for a server awaiting approval,
// whose definition nothing may run yet.
func explainSandbox(s model.Server, project string, ask bool) boxView {
	if s.Config.Sandbox == nil || !s.Config.EffectiveType().Info().Program {
		return boxView{}
	}
	p, err := launch.ExplainServer(s, project, ask && !s.AwaitsApproval())
	if err != nil {
		return boxView{Err: err}
	}
	v := p.View()
	return boxView{View: &v}
}

// write prints the view under a heading, each value escaped, home shown
// as ~.
func (b boxView) write(w io.Writer, home, indent string) {
	switch {
	case b.Err != nil:
		fmt.Fprintf(w, "%sSandbox on this machine: cannot be worked out: %s\n", indent, textsafe.Escape(b.Err.Error()))
		return
	case b.View == nil:
		return
	}
	fmt.Fprintf(w, "%sSandbox on this machine, as it would start now:\n", indent)
	writeLabelled(w, config.SandboxLines(b.View, home), indent+"  ")
}

// problems are what the sandbox does not open of what was asked, in
// words, for "Config problems": a listed ~/.ssh is never silently
// dropped.
func (b boxView) problems(home string) []string {
	if b.View == nil {
		return nil
	}
	var out []string
	for _, d := range b.View.Dropped {
		out = append(out, "sandbox: "+textsafe.SanitizeLine(d.Text(home)))
	}
	return out
}
