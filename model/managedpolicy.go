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

// PolicyDecision says whether managed policy lets the server run, and which
// rule decided ("" when no policy applies).
type PolicyDecision struct {
	Allowed bool   `json:"allowed"`
	Rule    string `json:"rule,omitempty"`
}
