package model

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
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
}

// Judge decides whether prog may start as a program of the server named
// server ("" for mcpdeck's own programs, such as the browser opener): it is
// judged as a stdio server of that name running prog would be, by
// serverName and serverCommand rules (serverUrl rules are about addresses,
// not programs). A deny of ["*"] stops every program.
func (p Rules) Judge(server string, prog Program) PolicyDecision {
	return p.judge(&target{name: server, kind: TransportStdio, prog: prog, found: prog.Path != ""})
}

// Decide applies the policy to a server (expanded config); prog is the
// program a stdio server runs, as ServerProgram found it (found is false
// when it found none).
func (p Rules) Decide(name string, cfg ServerConfig, prog Program, found bool) PolicyDecision {
	return p.judge(&target{name: name, kind: cfg.EffectiveType(), rawURL: cfg.URL, prog: prog, found: found})
}

// judge applies the policy to a target. Deny wins over allow; the
// returned Rule names the list and the entry that decided.
func (p Rules) judge(t *target) PolicyDecision {
	if p.broken != "" {
		return PolicyDecision{Allowed: false, Rule: p.broken}
	}
	for _, r := range p.deny {
		if t.matches(r, true) {
			return PolicyDecision{Allowed: false, Rule: "deniedMcpServers: " + r.describe() + t.notFoundNote(r)}
		}
	}
	if p.allow == nil {
		return PolicyDecision{Allowed: true}
	}
	for _, r := range p.allow {
		if t.matches(r, false) {
			return PolicyDecision{Allowed: true, Rule: "allowedMcpServers: " + r.describe()}
		}
	}
	rule := "allowedMcpServers: not listed"
	if t.kind == TransportStdio && !t.found {
		rule += " (the program is not found)"
	}
	return PolicyDecision{Allowed: false, Rule: rule}
}

// target is what rules are compared to: a server by name, with its URL
// (remote) or the program it runs (stdio), parsed once, on first need.
type target struct {
	name   string
	kind   Transport
	rawURL string
	url    *urlParts
	urlOK  bool
	prog   Program
	found  bool // the program was found
}

// notFoundNote explains a command rule that matched only because the
// program could not be found.
func (t *target) notFoundNote(r policyRule) string {
	if r.kind == "serverCommand" && t.kind == TransportStdio && !t.found {
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
		return NormalizeName(r.name) == NormalizeName(t.name)
	case "serverUrl":
		if !t.kind.IsRemote() {
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
		if t.kind != TransportStdio {
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

// ReadManaged reads managed-settings.json. A missing file is no policy.
func ReadManaged(f *File, prob *Problem, path string) (Rules, []Problem) {
	if prob != nil {
		return Rules{broken: "managed-settings.json cannot be used (" + prob.Error() + "): every server is blocked", file: path}, []Problem{*prob}
	}
	if f == nil {
		return Rules{}, nil
	}
	var probs []Problem
	var pol Rules
	pol.file = path
	for _, key := range []string{"allowedMcpServers", "deniedMcpServers"} {
		n := f.Root.Get(key)
		if n == nil || n.Kind == 'z' {
			continue
		}
		rules, ferr := decodeRules(jsondoc.Decoder{Doc: f.Doc}, n, key)
		if ferr != nil {
			p := f.ProblemAt("", ferr)
			probs = append(probs, p)
			pol.broken = fmt.Sprintf("managed-settings.json cannot be used (%s): every server is blocked", p.Error())
			continue
		}
		if key == "allowedMcpServers" {
			pol.allow = rules
		} else {
			pol.deny = rules
		}
	}
	return pol, probs
}

// decodeRules decodes a list of rules; an entry with none or several of the
// three keys is an error (an ambiguous policy must not be guessed at).
func decodeRules(d jsondoc.Decoder, n *jsondoc.Node, field string) ([]policyRule, *jsondoc.FieldError) {
	if n.Kind != '[' {
		return nil, jsondoc.Want(n, field, "an array")
	}
	rules := make([]policyRule, 0, len(n.Elems))
	for i, e := range n.Elems {
		f := fmt.Sprintf("%s[%d]", field, i)
		if e.Kind != '{' {
			return nil, jsondoc.Want(e, f, "an object")
		}
		if len(e.Members) != 1 {
			return nil, &jsondoc.FieldError{Field: f, Offset: e.Start, Msg: "must have exactly one of serverName, serverUrl, serverCommand"}
		}
		m := e.Members[0]
		r := policyRule{kind: m.Key}
		var err *jsondoc.FieldError
		switch m.Key {
		case "serverName":
			r.name, err = d.Str(m.Val, f+".serverName")
		case "serverUrl":
			r.url, err = d.Str(m.Val, f+".serverUrl")
			if err == nil {
				var perr error
				if r.urlPat, perr = parseURLPattern(r.url); perr != nil {
					err = &jsondoc.FieldError{Field: f + ".serverUrl", Offset: m.Val.Start, Msg: perr.Error()}
				}
			}
		case "serverCommand":
			r.command, err = d.Strs(m.Val, f+".serverCommand")
			if err == nil && len(r.command) == 0 {
				err = &jsondoc.FieldError{Field: f + ".serverCommand", Offset: m.Val.Start, Msg: "must not be empty"}
			}
		default:
			err = &jsondoc.FieldError{Field: f + "." + m.Key, Offset: m.KeyStart, Msg: "unknown rule (use serverName, serverUrl or serverCommand)"}
		}
		if err != nil {
			return nil, err
		}
		rules = append(rules, r)
	}
	return rules, nil
}
