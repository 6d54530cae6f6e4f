package model

import (
	"fmt"

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
	// HomeRelative lists the command and arguments (as written, secrets
	// masked) that are relative paths although the server starts in the
	// home directory only because its definition sets no cwd: before, they
	// named something in the directory mcpdeck was started in. The UIs name
	// them and suggest "cwd": "${PROJECT_DIR}" (see homeRelative).
	HomeRelative []string `json:"-"`
}

// Origin names a definition: which scope and file.
type Origin struct {
	Scope  Scope  `json:"scope"`
	Source string `json:"source"`
}

// Problem is a configuration error located as precisely as we can: file, line,
// column, server and field. A server with problems cannot run.
type Problem struct {
	File    string `json:"file,omitempty"`
	Line    int    `json:"line,omitempty"`
	Col     int    `json:"col,omitempty"`
	Server  string `json:"server,omitempty"`
	Field   string `json:"field,omitempty"`
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

func (p Problem) render() string {
	loc := p.File
	if loc != "" && p.Line > 0 {
		loc = fmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
	}
	msg := p.Message
	if p.Field != "" {
		msg = "field " + p.Field + ": " + msg
	}
	if p.Server != "" {
		msg = "server " + p.Server + ", " + msg
	}
	if loc != "" {
		return msg + " (" + loc + ")"
	}
	return msg
}

// ApprovalStatus is where a project (.mcp.json) server stands with the person.
type ApprovalStatus int

const (
	ApprovalNotNeeded ApprovalStatus = iota // not a project server
	ApprovalApproved
	ApprovalPending // never decided
	ApprovalChanged // approved, but the definition changed since: ask again
	ApprovalRejected
)

var approvalNames = [...]string{"not-needed", "approved", "pending", "changed", "rejected"}

// String returns the name shown in listings.
func (a ApprovalStatus) String() string {
	if a < 0 || int(a) >= len(approvalNames) {
		return "unknown"
	}
	return approvalNames[a]
}

// MarshalText lets ApprovalStatus appear by name in JSON.
func (a ApprovalStatus) MarshalText() ([]byte, error) { return []byte(a.String()), nil }

// Approval carries the status and, when the definition changed after approval,
// a readable diff between the approved and the current definition.
type Approval struct {
	Status       ApprovalStatus `json:"status"`
	ApprovedHash string         `json:"approvedHash,omitempty"`
	Diff         string         `json:"diff,omitempty"`
}

// PolicyDecision says whether managed policy lets the server run, and which
// rule decided ("" when no policy applies).
type PolicyDecision struct {
	Allowed bool   `json:"allowed"`
	Rule    string `json:"rule,omitempty"`
}

// MarshalJSON of Scope uses its name.
func (s Scope) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// Runnable reports whether the engine may spawn or contact the server.
func (s Server) Runnable() bool {
	return s.Enabled && s.Policy.Allowed && len(s.Problems) == 0 &&
		(s.Approval.Status == ApprovalNotNeeded || s.Approval.Status == ApprovalApproved)
}
