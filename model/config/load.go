package config

import (
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/policy"
	"github.com/mcpdeck/mcpdeck/model/private"
)

// inlineSource is Server.Source for servers given as inline JSON to --mcp-config.
const inlineSource = "--mcp-config"

// Resolved is the merged configuration: every server that exists, whether it
// may run, and why not. It is a value computed from the files; nothing in it
// is live.
type Resolved struct {
	Servers     []model.Server  // sorted by name, includes disabled/unapproved/blocked ones
	Problems    []model.Problem // file-level problems (broken JSON etc.)
	Files       []string        // every config file path consulted (existing or not) — for fsnotify
	ProjectRoot string          // dir of the nearest .mcp.json, else Cwd
	Enterprise  bool
	Permissions policy.Permissions
	// ManagedPolicy is managed policy, which judges mcpdeck's own programs
	// too (the browser opener); each Server carries it as well.
	ManagedPolicy model.Policy
	// Suppressed lists plugin servers hidden by signature dedup.
	Suppressed []Suppressed
	// LocalSettings is the person's private state of ProjectRoot, in the
	// config dir (may not exist): local servers and decisions.
	LocalSettings string
	// Untrusted is a .mcpdeck/settings.local.json found at ProjectRoot: an
	// older mcpdeck kept private state there, but a repository can ship one,
	// so nothing in it applies. Nil when there is none.
	Untrusted *private.UntrustedLocal
}

// Suppressed is a plugin server that duplicates another server (same command
// and arguments, or same URL) and therefore is not offered.
type Suppressed struct {
	Name      string       `json:"name"`
	Origin    model.Origin `json:"origin"`
	By        string       `json:"by"` // name of the server kept instead
	ByOrigin  model.Origin `json:"byOrigin"`
	Signature string       `json:"signature"`
}

// Server returns the server of that name (exact, else after NormalizeName).
func (r *Resolved) Server(name string) (model.Server, bool) {
	for _, s := range r.Servers {
		if s.Name == name {
			return s, true
		}
	}
	n := model.NormalizeName(name)
	for _, s := range r.Servers {
		if model.NormalizeName(s.Name) == n {
			return s, true
		}
	}
	return model.Server{}, false
}

// Load reads every scope and merges them. Broken files, bad
// entries and unset variables never make Load fail: they are Problems, on
// the file or on the one server concerned, so everything else still loads.
// The error is only for unusable options.
func Load(opts LoadOptions) (*Resolved, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	l := discover(opts)
	r := &Resolved{ProjectRoot: l.root, LocalSettings: l.local}
	var probs []model.Problem
	read := func(path string) *jsonfile.File {
		r.Files = append(r.Files, path)
		f, p := jsonfile.Read(path)
		if p != nil {
			probs = append(probs, *p)
		}
		return f
	}
	// Settings files that exist but cannot be parsed: their permission
	// rules are unknown (see Permissions.Unreadable).
	var unreadable []string
	readSettings := func(path string) *jsonfile.File {
		r.Files = append(r.Files, path)
		f, p := jsonfile.Read(path)
		if p != nil {
			probs = append(probs, *p)
			unreadable = append(unreadable, path)
		}
		return f
	}
	addDefs := func(f *jsonfile.File, scope model.Scope, source string) []jsonfile.Definition {
		if f == nil {
			return nil
		}
		d, p := jsonfile.ServersIn(f, scope, source)
		probs = append(probs, p...)
		return d
	}

	r.Files = append(r.Files, l.managedSettings)
	pf, pprob := jsonfile.Read(l.managedSettings)
	pol, pp := policy.ReadManaged(pf, pprob, l.managedSettings)
	r.ManagedPolicy = model.NewPolicy(pol)
	probs = append(probs, pp...)
	if pprob != nil {
		unreadable = append(unreadable, l.managedSettings)
	}

	// Enterprise is exclusive when managed-mcp.json exists, even when it is
	// broken: failing open would start servers the administrator excluded.
	r.Files = append(r.Files, l.managedMCP)
	ef, eprob := jsonfile.Read(l.managedMCP)
	if eprob != nil {
		probs = append(probs, *eprob)
	}
	r.Enterprise = ef != nil || eprob != nil
	uf := readSettings(l.user)
	var lf *jsonfile.File
	if l.local != "" {
		r.Files = append(r.Files, l.projectsDir) // noticed when the first decision creates it
		lf = readSettings(l.local)
	}
	var st private.Decisions
	if lf != nil {
		var sp []model.Problem
		st, sp = private.ReadDecisions(lf)
		probs = append(probs, sp...)
	}
	r.Files = append(r.Files, l.untrusted)
	r.Untrusted = private.Untrusted(l.untrusted, lf)
	r.Permissions = mergePermissions(pf, uf, lf, &probs)
	r.Permissions.Unreadable = strings.Join(unreadable, ", ")

	var defs []jsonfile.Definition
	if r.Enterprise {
		defs = addDefs(ef, model.ScopeEnterprise, l.managedMCP)
	} else {
		r.Files = append(r.Files, l.pluginsDir)
		for _, p := range l.plugins {
			defs = append(defs, addDefs(read(p.path), model.ScopePlugin, p.path)...)
		}
		defs = append(defs, addDefs(uf, model.ScopeUser, l.user)...)
		r.Files = append(r.Files, l.walked...)
		if l.project != "" {
			f, p := jsonfile.Read(l.project)
			if p != nil {
				probs = append(probs, *p)
			}
			defs = append(defs, addDefs(f, model.ScopeProject, l.project)...)
		}
		for _, d := range addDefs(lf, model.ScopeLocal, l.local) {
			d.Dir = l.root // a relative cwd means the project's directory
			defs = append(defs, d)
		}
		for _, v := range opts.Dynamic {
			f, src := readDynamic(opts.Cwd, v, &probs, r)
			defs = append(defs, addDefs(f, model.ScopeDynamic, src)...)
		}
	}
	r.Problems = probs
	r.Servers, r.Suppressed = merge(defs, opts, l.root, pol, st)
	r.Problems = append(r.Problems, nameClashes(r.Servers)...)
	return r, nil
}

// readDynamic reads one --mcp-config value: inline JSON when it starts with
// '{', otherwise a file path (relative to Cwd). A missing file is a problem:
// the person named it explicitly.
func readDynamic(cwd, v string, probs *[]model.Problem, r *Resolved) (*jsonfile.File, string) {
	if strings.HasPrefix(strings.TrimSpace(v), "{") {
		f, p := jsonfile.Parse(inlineSource, []byte(v))
		if p != nil {
			*probs = append(*probs, *p)
		}
		return f, inlineSource
	}
	path := v
	if !filepath.IsAbs(path) {
		path = filepath.Join(cwd, path)
	}
	r.Files = append(r.Files, path)
	f, p := jsonfile.Read(path)
	switch {
	case p != nil:
		*probs = append(*probs, *p)
	case f == nil:
		*probs = append(*probs, model.Problem{File: path, Message: "--mcp-config file does not exist"})
	}
	return f, path
}

// mergePermissions concatenates the permission rules of managed, user and
// local settings (deny wins in Check whatever file a rule came from).
func mergePermissions(managed, user, local *jsonfile.File, probs *[]model.Problem) policy.Permissions {
	var out policy.Permissions
	for _, f := range []*jsonfile.File{managed, user, local} {
		if f == nil {
			continue
		}
		var p policy.Permissions
		if f != local { // local problems were reported by ReadDecisions
			p, *probs = policy.ReadPermissions(f, *probs)
		} else {
			p, _ = policy.ReadPermissions(f, nil)
		}
		out.Allow = append(out.Allow, p.Allow...)
		out.Deny = append(out.Deny, p.Deny...)
	}
	return out
}

// Secrets is the union of the secret sets of every server: what one run
// of mcpdeck masks in what it writes about all of them (a support
// bundle, a command's last error).
func (r *Resolved) Secrets() []string {
	if r == nil {
		return nil
	}
	var out []string
	for _, s := range r.Servers {
		out = append(out, s.Secrets()...)
	}
	return out
}
