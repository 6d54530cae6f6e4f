package model

import (
	"fmt"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Server is one server after loading, merging and checking: everything the
// engine and the UIs need to decide whether it may run, and to explain why not.
type Server struct {
	Name   string `json:"name"`
	Scope  Scope  `json:"scope"`
	Source string `json:"source"` // file path, or "--mcp-config" for inline JSON
	// Raw is the definition as written; Config has ${VAR}s expanded.
	Raw    ServerConfig `json:"-"`
	Config ServerConfig `json:"-"`
	// Expanded are the values ${VAR} and ${secret:NAME} expansion put into
	// Config, harmless variables (HOME, PATH...) left out: part of the
	// server's secret set (Secrets) wherever in the definition they sit.
	Expanded []Expansion `json:"-"`
	// Hash is the config hash (SHA-256 of canonical Raw JSON, scope excluded).
	Hash      string         `json:"hash"`
	Overrides []Origin       `json:"overrides,omitempty"`
	Problems  []Problem      `json:"problems,omitempty"`
	Approval  Approval       `json:"approval"`
	Policy    PolicyDecision `json:"policy"`
	// ManagedPolicy is the managed policy in force when the server was
	// loaded: the launcher judges every program it starts for the server
	// (its command, headersHelper, oauth.assertionCommand, sampling
	// command) by it.
	ManagedPolicy Policy `json:"-"`
	Enabled       bool   `json:"enabled"`
	// Sampling is the person's standing answer to the server's sampling
	// requests, from the project's private state.
	Sampling SamplingDecision `json:"sampling,omitempty"`
	// Editor is the editor whose lock file made this server (engine/ide);
	// nil for every server a file defines. It needs no approval: the
	// person's own editor wrote it, not a repository.
	Editor *Editor `json:"editor,omitempty"`
	// HomeRelative lists the command and arguments (as written, secrets
	// masked) that are relative paths although the server starts in the
	// home directory only because its definition sets no cwd: before, they
	// named something in the directory mcpdeck was started in. The UIs name
	// them and suggest "cwd": "${PROJECT_DIR}" (model/config works them out).
	HomeRelative []string `json:"-"`
}

// Editor is the editor an IDE server belongs to: its name (ideName,
// sanitized), its process and the workspace folder that holds the
// project.
type Editor struct {
	Name   string `json:"name"`
	PID    int    `json:"pid"`
	Folder string `json:"folder"`
}

// From is how the UIs say where the server comes from: "from NAME (pid
// N)", sanitized for one line.
func (e Editor) From() string {
	return textsafe.SanitizeLine(fmt.Sprintf("from %s (pid %d)", e.Name, e.PID))
}

// ForAgents reports whether an agent is offered the editor's tool named
// tool without the person opting in (serve's --ide-tools): only
// getDiagnostics, which reads, and executeCode, which runs code in the
// notebook kernel the person chose. Opening files and diffs, or reading
// the selection, act in or read from the person's editor as they work.
func (Editor) ForAgents(tool string) bool {
	return tool == "getDiagnostics" || tool == "executeCode"
}

// Origin names a definition: which scope and file.
type Origin struct {
	Scope  Scope  `json:"scope"`
	Source string `json:"source"`
}

// Problem is a configuration error located as precisely as we can: file, line,
// column, server and field. A server with problems cannot run.
type Problem struct {
	File   string `json:"file,omitempty"`
	Line   int    `json:"line,omitempty"`
	Col    int    `json:"col,omitempty"`
	Server string `json:"server,omitempty"`
	Field  string `json:"field,omitempty"`
	// Scope is set on the problem of a scope's definitions file whose
	// servers could not be read at all (broken JSON, unreadable, mcpServers
	// not an object): the UIs show it as a row of that scope.
	Scope Scope `json:"scope,omitempty"`
	// Var is the environment variable a ${VAR} of the definition names
	// that is not set (and has no default): the fix is to set it, not to
	// edit the file.
	Var     string `json:"var,omitempty"`
	Message string `json:"message"`
}

// Error renders the problem as one sentence that leads with the cause and
// ends with where it is, "server a, field args: … (.mcp.json:6:104)", so a
// narrow screen cuts the path, not the reason. The text is
// sanitized: names and values come from files a repository may have brought
// along and must not smuggle terminal escapes onto the screen.
func (p Problem) Error() string {
	return textsafe.Sanitize(p.render())
}

// Cause is Error without the place: "server a, field args: …", sanitized.
func (p Problem) Cause() string {
	return textsafe.Sanitize(p.cause())
}

func (p Problem) cause() string {
	msg := p.Message
	if p.Field != "" {
		msg = "field " + p.Field + ": " + msg
	}
	if p.Server != "" {
		msg = "server " + p.Server + ", " + msg
	}
	return msg
}

func (p Problem) render() string {
	loc := p.File
	if loc != "" && p.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
	if loc != "" {
		return p.cause() + " (" + loc + ")"
	}
	return p.cause()
}

// Runnable reports whether the engine may spawn or contact the server: its
// definition has no Blockers.
func (s Server) Runnable() bool { return len(s.Blockers()) == 0 }

// Blockers lists every reason the definition may not run, most decisive
// first: managed policy, disabled by you, approval (awaiting or rejected),
// each config problem. The one rule of whether a server may run: Runnable
// is "none of these", and the engine publishes both on each snapshot (its
// Blockers add a command that cannot be found, which does not stop an
// attempt).
func (s Server) Blockers() []Reason {
	var out []Reason
	if !s.Policy.Allowed {
		out = append(out, Reason{Kind: ReasonBlockedByPolicy, Rule: s.Policy.Rule})
	}
	if !s.Enabled {
		out = append(out, Reason{Kind: ReasonDisabledByYou})
	}
	switch s.Approval.Status {
	case ApprovalPending, ApprovalChanged:
		out = append(out, Reason{Kind: ReasonAwaitingApproval, Changed: s.Approval.Status == ApprovalChanged})
	case ApprovalRejected:
		out = append(out, Reason{Kind: ReasonRejectedByYou})
	case ApprovalUnknown:
		if len(s.Problems) == 0 { // the file's problem is normally there: never run without a reason
			out = append(out, Reason{Kind: ReasonConfigProblem, Problem: &Problem{Server: s.Name, Message: "your decisions on this project cannot be read"}})
		}
	case ApprovalNotNeeded, ApprovalApproved:
	}
	for i := range s.Problems {
		out = append(out, Reason{Kind: ReasonConfigProblem, Problem: &s.Problems[i]})
	}
	return out
}

// AwaitsApproval reports whether s is a project server the person has not
// approved at its current definition (new, changed since approved, or
// rejected): the one whose definition as written, unmasked, is shown by
// ApprovalView before they approve it.
func (s Server) AwaitsApproval() bool {
	if s.Scope != ScopeProject {
		return false
	}
	switch s.Approval.Status {
	case ApprovalPending, ApprovalChanged, ApprovalRejected:
		return true
	case ApprovalNotNeeded, ApprovalApproved, ApprovalUnknown:
	}
	return false
}

// DefinitionDir is the directory of the file that defines s: the command
// lines its definition holds (headersHelper, oauth.assertionCommand, its
// "sampling" command) run there, and the files it names relatively
// (oauth.assertionFile, oauth.privateKeyFile) are found there, so a
// working tree mcpdeck was started in redirects none of them unless it
// defines the server. "" for inline --mcp-config JSON, which the person
// typed where mcpdeck was started: that directory.
func (s Server) DefinitionDir() string {
	if !filepath.IsAbs(s.Source) {
		return ""
	}
	return filepath.Dir(s.Source)
}

// RunsIn is the directory a stdio server's process starts in (its
// resolved cwd), "" for servers mcpdeck starts no process for.
func (s Server) RunsIn() string {
	if !s.Config.EffectiveType().Info().Program {
		return ""
	}
	return s.Config.Cwd
}
