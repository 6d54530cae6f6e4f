package policy

import (
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// policyRule is one entry of allowedMcpServers / deniedMcpServers: exactly one
// of serverName, serverUrl (with * wildcards, compared part by part, see
// urlPattern) or serverCommand (argv, each element with * wildcards; the
// first compared as a program, see denyProgram and allowProgram).
type policyRule struct {
	name    string
	url     string
	urlPat  urlPattern
	command []string
	kind    string // "serverName", "serverUrl" or "serverCommand"
	// bound is a sandboxedMcpServers rule's maximum (maximumKey), nil
	// when it has none.
	bound *sandboxBound
}

// describe renders the rule for PolicyDecision.Rule, e.g.
// serverUrl "https://*.evil.com/*".
func (r policyRule) describe() string {
	switch r.kind {
	case "serverName":
		return "serverName " + strconv.Quote(r.name)
	case "serverUrl":
		return "serverUrl " + strconv.Quote(r.url)
	}
	q := make([]string, len(r.command))
	for i, a := range r.command {
		q[i] = strconv.Quote(a)
	}
	return "serverCommand [" + strings.Join(q, ", ") + "]"
}

// Rules is managed-settings.json. allow == nil means no allow list; an
// allow list that is present but empty blocks every server (lockdown, as in
// the reference). broken is set when the file exists but cannot be used:
// we then fail closed and block everything, naming the file.
type Rules struct {
	allow  []policyRule
	deny   []policyRule
	broken string
	file   string
	// sandboxed are the rules of sandboxedMcpServers: a stdio server one
	// matches runs only with a sandbox.
	sandboxed []policyRule
	// forcePins is forceToolPinning: every server's tools are pinned,
	// whatever a definition's "pinTools" says.
	forcePins bool
}

// ForcesToolPinning reports whether managed policy pins every server's
// tools ("forceToolPinning": true), whatever a definition's "pinTools"
// says.
func (p Rules) ForcesToolPinning() bool { return p.forcePins }

// sandboxedKey is the managed setting that requires a sandbox of the
// stdio servers its rules match (serverName, serverCommand).
const sandboxedKey = "sandboxedMcpServers"

// Judge decides whether prog may start as a program of the server named
// server ("" for mcpdeck's own programs, such as the browser opener): it is
// judged as a stdio server of that name running prog would be, by
// serverName and serverCommand rules (serverUrl rules are about addresses,
// not programs). A deny of ["*"] stops every program.
func (p Rules) Judge(server string, prog model.Program) model.PolicyDecision {
	return p.judge(&target{name: server, program: true, prog: prog, found: prog.Path != ""})
}

// Decide applies the policy to a server (expanded config); prog is the
// program a stdio server runs, as ServerProgram found it (found is false
// when it found none).
func (p Rules) Decide(name string, cfg model.ServerConfig, prog model.Program, found bool) model.PolicyDecision {
	t := cfg.EffectiveType().Info()
	tg := &target{name: name, program: t.Program, remote: t.Remote, rawURL: cfg.URL, prog: prog, found: found}
	d := p.judge(tg)
	if d.Allowed && t.Program && cfg.Sandbox == nil {
		if rule, ok := p.sandboxRule(tg); ok {
			return model.PolicyDecision{Allowed: false, Rule: rule}
		}
	}
	if d.Allowed && t.Program && cfg.Sandbox != nil {
		if rule, beyond := p.sandboxBeyond(tg, cfg.Sandbox, nil); beyond {
			return model.PolicyDecision{Allowed: false, Rule: rule}
		}
	}
	return d
}

// SandboxBeyond reports whether box, the sandbox prog is about to run in
// as a program of the server named server, opens more than the maximum
// of a sandboxedMcpServers rule that matches, and that rule with what
// goes past it; real resolves symbolic links, so a write path is judged
// as what it reaches. The launcher asks before it starts anything.
func (p Rules) SandboxBeyond(server string, prog model.Program, box *model.Sandbox, real func(string) string) (string, bool) {
	return p.sandboxBeyond(&target{name: server, program: true, prog: prog, found: prog.Path != ""}, box, real)
}

// sandboxBeyond is SandboxBeyond for a target.
func (p Rules) sandboxBeyond(t *target, box *model.Sandbox, real func(string) string) (string, bool) {
	for _, r := range p.sandboxed {
		if r.bound == nil || !t.matches(r, true) {
			continue
		}
		if what := r.bound.beyond(box, real); what != "" {
			return sandboxedKey + ": " + r.describe() + " (the sandbox opens more than the rule's maximum: " + what + ")", true
		}
	}
	return "", false
}

// RequiresSandbox reports whether prog, as the program of the stdio
// server named server, may run only in a sandbox, and the rule that says
// so: the launcher refuses to start it without one.
func (p Rules) RequiresSandbox(server string, prog model.Program) (string, bool) {
	return p.sandboxRule(&target{name: server, program: true, prog: prog, found: prog.Path != ""})
}

// sandboxRule is the first sandboxedMcpServers rule t matches, described
// as a policy block names its rule. A program that cannot be found
// matches every serverCommand rule (doubt requires the sandbox).
func (p Rules) sandboxRule(t *target) (string, bool) {
	for _, r := range p.sandboxed {
		if t.matches(r, true) {
			return sandboxedKey + ": " + r.describe() + " (the server has no sandbox)", true
		}
	}
	return "", false
}

// judge applies the policy to a target. Deny wins over allow; the
// returned Rule names the list and the entry that decided.
func (p Rules) judge(t *target) model.PolicyDecision {
	if p.broken != "" {
		return model.PolicyDecision{Allowed: false, Rule: p.broken}
	}
	for _, r := range p.deny {
		if t.matches(r, true) {
			return model.PolicyDecision{Allowed: false, Rule: "deniedMcpServers: " + r.describe() + t.notFoundNote(r)}
		}
	}
	if p.allow == nil {
		return model.PolicyDecision{Allowed: true}
	}
	for _, r := range p.allow {
		if t.matches(r, false) {
			return model.PolicyDecision{Allowed: true, Rule: "allowedMcpServers: " + r.describe()}
		}
	}
	rule := "allowedMcpServers: not listed"
	if t.program && !t.found {
		rule += " (the program is not found)"
	}
	return model.PolicyDecision{Allowed: false, Rule: rule}
}

// target is what rules are compared to: a server by name, with its URL
// (remote) or the program it runs (stdio), parsed once, on first need.
type target struct {
	name   string
	rawURL string
	url    *urlParts
	urlOK  bool
	prog   model.Program
	found  bool // the program was found
	// program: mcpdeck starts a program for it; remote: it is reached at
	// rawURL (columns of the transport table).
	program, remote bool
}

// notFoundNote explains a command rule that matched only because the
// program could not be found.
func (t *target) notFoundNote(r policyRule) string {
	if r.kind == "serverCommand" && t.program && !t.found {
		return " (the program is not found)"
	}
	return ""
}

// matches compares a rule to the target. Names compare normalized; a URL
// rule never matches a program and a command rule never matches a remote
// server. deny says which list the rule is in: what cannot be understood
// (a URL that does not parse, a program that cannot be found) satisfies
// every deny rule of its kind and no allow rule, so doubt always blocks.
func (t *target) matches(r policyRule, deny bool) bool {
	switch r.kind {
	case "serverName":
		return model.NormalizeName(r.name) == model.NormalizeName(t.name)
	case "serverUrl":
		if !t.remote {
			return false
		}
		if t.url == nil {
			u, ok := parseServerURL(t.rawURL)
			t.url, t.urlOK = &u, ok
		}
		if !t.urlOK {
			return deny
		}
		return r.urlPat.match(*t.url)
	case "serverCommand":
		if !t.program {
			return false
		}
		if !t.found && !deny {
			return false
		}
		if len(r.command) == 1 && r.command[0] == "*" {
			return true // any program with any arguments
		}
		if deny {
			// A program that is not found could be any file: only its
			// arguments can clear it.
			if t.found && !denyProgram(r.command[0], t.prog) {
				return false
			}
		} else if !allowProgram(r.command[0], t.prog) {
			return false
		}
		return argvMatch(r.command[1:], t.prog.Args)
	}
	return false
}

// argvMatch matches arguments element by element. A final pattern element
// that is exactly "*" also matches any number (zero or more) of remaining
// arguments.
func argvMatch(pat, argv []string) bool {
	for i, p := range pat {
		if i == len(pat)-1 && p == "*" {
			return true
		}
		if i >= len(argv) || !globMatch(p, argv[i]) {
			return false
		}
	}
	return len(pat) == len(argv)
}

// globMatch matches s against a pattern whose only wildcard is '*' (any run
// of characters). Callers give it one part of a URL or one argument, so a
// '*' never reaches past that part. Iterative, so hostile patterns stay
// linear.
func globMatch(pattern, s string) bool {
	p, i := 0, 0
	star, mark := -1, 0
	for i < len(s) {
		switch {
		case p < len(pattern) && pattern[p] == '*':
			star, mark = p, i
			p++
		case p < len(pattern) && pattern[p] == s[i]:
			p++
			i++
		case star >= 0:
			p = star + 1
			mark++
			i = mark
		default:
			return false
		}
	}
	for p < len(pattern) && pattern[p] == '*' {
		p++
	}
	return p == len(pattern)
}
