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
	// ForcePins is managed policy's forceToolPinning: every server's tools
	// are pinned, whatever a definition's "pinTools" says (PinsOff).
	ForcePins bool
	// Suppressed lists plugin servers hidden by signature dedup.
	Suppressed []Suppressed
	// LocalSettings is the person's private state of ProjectRoot, in the
	// config dir (may not exist): local servers and decisions.
	LocalSettings string
	// Untrusted is a .mcpdeck/settings.local.json found at ProjectRoot: an
	// older mcpdeck kept private state there, but a repository can ship one,
	// so nothing in it applies. Nil when there is none.
	Untrusted *private.UntrustedLocal
	// read holds the definitions each plugin, user and project file gave,
	// by path: what the next load keeps when that file breaks
	// (LoadOptions.Previous).
	read map[string][]jsonfile.Definition
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
	ld := &loading{
		r:    &Resolved{ProjectRoot: l.root, LocalSettings: l.local, read: map[string][]jsonfile.Definition{}},
		prev: opts.Previous,
	}
	r := ld.r

	r.Files = append(r.Files, l.managedSettings)
	pf, pprob := jsonfile.Read(l.managedSettings)
	pol, pp := policy.ReadManaged(pf, pprob, l.managedSettings, opts.Home)
	r.ManagedPolicy = model.NewPolicy(pol)
	r.ForcePins = pol.ForcesToolPinning()
	ld.probs = append(ld.probs, pp...)
	if pprob != nil {
		ld.unreadable = append(ld.unreadable, l.managedSettings)
	}

	// Enterprise is exclusive when managed-mcp.json exists, even when it is
	// broken: failing open would start servers the administrator excluded.
	r.Files = append(r.Files, l.managedMCP)
	ef, eprob := jsonfile.Read(l.managedMCP)
	r.Enterprise = ef != nil || eprob != nil
	uf, uprob := ld.readSettings(l.user)
	var lf *jsonfile.File
	if l.local != "" {
		r.Files = append(r.Files, l.projectsDir) // noticed when the first decision creates it
		var lprob *model.Problem
		if lf, lprob = ld.readSettings(l.local); lprob != nil {
			ld.probs = append(ld.probs, *lprob)
		}
	}
	var st private.Decisions
	if lf != nil {
		var sp []model.Problem
		st, sp = private.ReadDecisions(lf)
		ld.probs = append(ld.probs, sp...)
	}
	r.Files = append(r.Files, l.untrusted)
	r.Untrusted = private.Untrusted(l.untrusted, lf)
	r.Permissions = mergePermissions(pf, uf, lf, &ld.probs)
	r.Permissions.Unreadable = strings.Join(ld.unreadable, ", ")

	var defs []jsonfile.Definition
	if r.Enterprise {
		defs = ld.servers(ef, eprob, model.ScopeEnterprise, l.managedMCP, false)
		if uprob != nil { // its servers are ignored, its permission rules are not
			ld.probs = append(ld.probs, *uprob)
		}
	} else {
		defs = ld.unmanaged(l, opts, uf, uprob, lf)
	}
	r.Problems = ld.probs
	r.Servers, r.Suppressed = merge(defs, opts, l.root, pol, st)
	r.Problems = append(r.Problems, nameClashes(r.Servers)...)
	return r, nil
}

// unmanaged reads the definitions of every scope but enterprise: plugins,
// user, project, local and --mcp-config, lowest first.
func (ld *loading) unmanaged(l locations, opts LoadOptions, uf *jsonfile.File, uprob *model.Problem, lf *jsonfile.File) []jsonfile.Definition {
	r := ld.r
	var defs []jsonfile.Definition
	r.Files = append(r.Files, l.pluginsDir)
	for _, p := range l.plugins {
		r.Files = append(r.Files, p.path)
		f, prob := jsonfile.Read(p.path)
		defs = append(defs, ld.servers(f, prob, model.ScopePlugin, p.path, true)...)
	}
	defs = append(defs, ld.servers(uf, uprob, model.ScopeUser, l.user, true)...)
	r.Files = append(r.Files, l.walked...)
	if l.project != "" {
		f, p := jsonfile.Read(l.project)
		defs = append(defs, ld.servers(f, p, model.ScopeProject, l.project, true)...)
	}
	for _, d := range ld.defsIn(lf, model.ScopeLocal, l.local) {
		d.Dir = l.root // a relative cwd means the project's directory
		defs = append(defs, d)
	}
	for _, v := range opts.Dynamic {
		f, src := readDynamic(opts.Cwd, v, &ld.probs, r)
		defs = append(defs, ld.defsIn(f, model.ScopeDynamic, src)...)
	}
	return defs
}

// loading is one Load under way: the result, the problems found so far
// and the load it replaces.
type loading struct {
	r     *Resolved
	prev  *Resolved
	probs []model.Problem
	// unreadable are the settings files that exist but cannot be parsed:
	// their permission rules are unknown (see Permissions.Unreadable).
	unreadable []string
}

// readSettings reads a settings file (user settings, the private state),
// whose problem is reported here.
func (ld *loading) readSettings(path string) (*jsonfile.File, *model.Problem) {
	ld.r.Files = append(ld.r.Files, path)
	f, p := jsonfile.Read(path)
	if p != nil {
		ld.unreadable = append(ld.unreadable, path)
	}
	return f, p
}

// defsIn is the servers f defines (none when f is nil), their problems
// reported.
func (ld *loading) defsIn(f *jsonfile.File, scope model.Scope, source string) []jsonfile.Definition {
	if f == nil {
		return nil
	}
	d, p := jsonfile.ServersIn(f, scope, source)
	ld.probs = append(ld.probs, p...)
	return d
}

// servers is the servers of the definitions file of scope at path, read
// as f with problem prob. When the file exists but its servers cannot be
// read, the problem carries the scope (the UIs show it as the scope's
// row) and, if keep, the servers the load it replaces read from the file
// stay: a half-saved edit must not stop them.
func (ld *loading) servers(f *jsonfile.File, prob *model.Problem, scope model.Scope, path string, keep bool) []jsonfile.Definition {
	if prob == nil && f != nil {
		d, ps := jsonfile.ServersIn(f, scope, path)
		if len(ps) == 0 {
			ld.r.read[path] = d
			return d
		}
		prob = &ps[0] // mcpServers is not an object: the file's servers are unknown
	}
	if prob == nil {
		return nil // no such file
	}
	p := *prob
	p.Scope = scope
	ld.probs = append(ld.probs, p)
	if !keep || ld.prev == nil {
		return nil
	}
	d, ok := ld.prev.read[path]
	if ok {
		ld.r.read[path] = d
	}
	return d
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
