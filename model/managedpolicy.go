package model

// Policy is managed policy (managed-settings.json) as it was loaded. The
// launcher judges every program it starts by it (Judge); the zero Policy
// has no rules and allows everything. Its rules, how they are read and how
// they judge, live in model/policy; a Server carries the Policy in force
// when it was loaded, so the type that carries it lives here.
type Policy struct{ rules programJudge }

// programJudge is what managed policy's rules answer about one program.
type programJudge interface {
	Judge(server string, prog Program) PolicyDecision
	RequiresSandbox(server string, prog Program) (rule string, required bool)
	SandboxBeyond(server string, prog Program, box *Sandbox, real func(string) string) (rule string, beyond bool)
}

// NewPolicy wraps managed policy's rules (model/policy) so that a Server
// and the launcher can carry them.
func NewPolicy(rules programJudge) Policy { return Policy{rules: rules} }

// Judge decides whether prog may start as a program of the server named
// server ("" for mcpdeck's own programs, such as the browser opener), by
// the rules the Policy was made with; with none, it may.
func (p Policy) Judge(server string, prog Program) PolicyDecision {
	if p.rules == nil {
		return PolicyDecision{Allowed: true}
	}
	return p.rules.Judge(server, prog)
}

// RequiresSandbox reports whether prog, as the program of the stdio
// server named server, may run only in a sandbox, and the rule that
// says so; with no rules it need not.
func (p Policy) RequiresSandbox(server string, prog Program) (string, bool) {
	if p.rules == nil {
		return "", false
	}
	return p.rules.RequiresSandbox(server, prog)
}

// SandboxBeyond reports whether box, the sandbox prog is about to run in
// as a program of the server named server, opens more than managed
// policy's maximum for it (a sandboxedMcpServers rule's), and the rule
// that says so; real resolves a path's symbolic links. With no rules
// nothing is beyond.
func (p Policy) SandboxBeyond(server string, prog Program, box *Sandbox, real func(string) string) (string, bool) {
	if p.rules == nil || box == nil {
		return "", false
	}
	return p.rules.SandboxBeyond(server, prog, box, real)
}

// PolicyDecision says whether managed policy lets the server run, and which
// rule decided ("" when no policy applies).
type PolicyDecision struct {
	Allowed bool   `json:"allowed"`
	Rule    string `json:"rule,omitempty"`
}
