package model

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"
)

// merge turns definitions (in load order: plugins, user, project, local,
// dynamic — or enterprise alone) into servers: expand and validate each,
// drop plugin duplicates by signature, let the highest scope win per name,
// then apply approval, policy and the enabled state.
func merge(defs []definition, opts LoadOptions, pol policy, st localState) ([]Server, []Suppressed) {
	built := make([]Server, len(defs))
	for i, d := range defs {
		built[i] = build(d, opts)
	}
	keep, suppressed := dedup(built)

	byName := map[string][]int{} // indexes into built, load order
	var names []string
	for i, s := range built {
		if !keep[i] {
			continue
		}
		if _, ok := byName[s.Name]; !ok {
			names = append(names, s.Name)
		}
		byName[s.Name] = append(byName[s.Name], i)
	}
	sort.Strings(names)
	out := make([]Server, 0, len(names))
	for _, name := range names {
		idx := byName[name]
		w := winner(built, idx)
		s := built[w]
		for k := len(idx) - 1; k >= 0; k-- { // hidden definitions, highest first
			if i := idx[k]; i != w {
				s.Overrides = append(s.Overrides, Origin{Scope: built[i].Scope, Source: built[i].Source})
			}
		}
		sort.SliceStable(s.Overrides, func(a, b int) bool { return s.Overrides[a].Scope > s.Overrides[b].Scope })
		if s.Scope == ScopeProject {
			s.Approval = decideApproval(s.Name, s.Raw, s.Hash, st)
		}
		s.ManagedPolicy = Policy{pol}
		s.Policy = decideServer(pol, s, opts)
		s.Enabled = !containsName(st.disabled, s.Name)
		s.Sampling = st.sampling[NormalizeName(s.Name)]
		out = append(out, s)
	}
	return out, suppressed
}

// decideServer applies the policy to s, finding a stdio server's program
// with the one resolver, as the launcher will.
func decideServer(pol policy, s Server, opts LoadOptions) PolicyDecision {
	var prog Program
	found := false
	if s.Config.EffectiveType() == TransportStdio {
		var err error
		prog, err = ServerProgram(s.Config, opts.Cwd, opts.lookup())
		found = err == nil
	}
	return pol.decide(s.Name, s.Config, prog, found)
}

// winner picks the definition that applies: the highest scope; within one
// scope the last one loaded (a later --mcp-config overrides an earlier one),
// except plugins, where the first loaded wins as in the dedup rule.
func winner(built []Server, idx []int) int {
	w := idx[0]
	for _, i := range idx[1:] {
		s, cur := built[i].Scope, built[w].Scope
		if s > cur || (s == cur && s != ScopePlugin) {
			w = i
		}
	}
	return w
}

// build expands and validates one definition into a Server.
func build(d definition, opts LoadOptions) Server {
	s := Server{
		Name:     d.name,
		Scope:    d.origin.Scope,
		Source:   d.origin.Source,
		Raw:      d.raw,
		Hash:     ConfigHash(d.raw),
		Problems: d.problems,
		Approval: Approval{Status: ApprovalNotNeeded},
	}
	secret := func(name string) (string, error) {
		v, err := opts.resolveSecret(SecretRef{Scope: d.origin.Scope, File: d.origin.Source, Server: d.name, Name: name})
		if err == nil && v != "" {
			s.StoreSecrets = append(s.StoreSecrets, v)
		}
		return v, err
	}
	cfg, probs := expandConfig(d.raw, opts.lookup(), secret)
	dir := d.dir
	if dir == "" && d.origin.Source != InlineSource && d.origin.Source != "" {
		dir = filepath.Dir(d.origin.Source)
	}
	cfg.Cwd = resolveCwd(cfg.Cwd, dir, opts)
	s.Config = cfg
	if len(d.problems) == 0 && len(probs) == 0 {
		probs = validate(cfg)
	}
	for _, p := range probs {
		p.File, p.Server = d.origin.Source, d.name
		if d.file != nil && d.node != nil {
			p.Line, p.Col = lineCol(d.file.doc, locate(d.node, p.Field).start)
		}
		s.Problems = append(s.Problems, p)
	}
	return s
}

// signature identifies what a server runs: stdio command+args, or the URL of
// a remote server. sdk servers have none (they are never duplicates), nor do
// definitions without a command or URL (broken ones run nothing, so they
// duplicate nothing).
func signature(cfg ServerConfig) string {
	t := cfg.EffectiveType()
	switch {
	case t == TransportStdio && strings.TrimSpace(cfg.Command) != "":
		b, _ := json.Marshal(append([]string{cfg.Command}, cfg.Args...))
		return "stdio:" + string(b)
	case t.IsRemote() && strings.TrimSpace(cfg.URL) != "":
		return "url:" + strings.TrimSpace(cfg.URL)
	}
	return ""
}

// dedup hides duplicates: a plugin (or connector) server whose signature
// equals a manually configured server's is suppressed (manual wins); between
// plugins the first loaded wins.
func dedup(built []Server) (keep []bool, suppressed []Suppressed) {
	keep = make([]bool, len(built))
	manual := map[string]int{}
	for i, s := range built {
		keep[i] = true
		if s.Scope != ScopePlugin && s.Scope != ScopeConnector {
			if sig := signature(s.Config); sig != "" {
				if _, ok := manual[sig]; !ok {
					manual[sig] = i
				}
			}
		}
	}
	plugins := map[string]int{}
	for i, s := range built {
		if s.Scope != ScopePlugin && s.Scope != ScopeConnector {
			continue
		}
		sig := signature(s.Config)
		if sig == "" {
			continue
		}
		by, ok := manual[sig]
		if !ok {
			by, ok = plugins[sig]
		}
		if ok {
			keep[i] = false
			suppressed = append(suppressed, Suppressed{
				Name: s.Name, Origin: Origin{Scope: s.Scope, Source: s.Source},
				By: built[by].Name, ByOrigin: Origin{Scope: built[by].Scope, Source: built[by].Source},
				Signature: sig,
			})
			continue
		}
		plugins[sig] = i
	}
	return keep, suppressed
}

// resolveCwd makes a server's working directory absolute so it does not
// depend on where mcpdeck was started: "~/x" is under Home, a relative path
// is relative to dir: the directory of the file that defines it (a
// repository's .mcp.json saying "cwd": "tools" means its own tools/), the
// project root for local servers, or "" meaning Cwd (inline --mcp-config).
func resolveCwd(cwd, dir string, opts LoadOptions) string {
	switch {
	case cwd == "" || filepath.IsAbs(cwd):
		return cwd
	case cwd == "~" && opts.Home != "":
		return opts.Home
	case strings.HasPrefix(cwd, "~/") && opts.Home != "":
		return filepath.Join(opts.Home, cwd[2:])
	case dir == "":
		return filepath.Join(opts.Cwd, cwd)
	}
	return filepath.Join(dir, cwd)
}
