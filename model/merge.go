package model

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// merge turns definitions (in load order: plugins, user, project, local,
// dynamic — or enterprise alone) of the project at root into servers:
// expand, place (workDir) and validate each,
// drop plugin duplicates by signature, let the highest scope win per name,
// then apply approval, policy and the enabled state.
func merge(defs []definition, opts LoadOptions, root string, pol policy, st localState) ([]Server, []Suppressed) {
	built := make([]Server, len(defs))
	for i, d := range defs {
		built[i] = build(d, opts, root)
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
			s.Approval = st.approval(s.Name, s.Raw, s.Hash)
		}
		s.ManagedPolicy = NewPolicy(pol)
		s.Policy = decideServer(pol, s, opts)
		s.Enabled = !st.disabledServer(s.Name)
		s.Sampling = st.samplingOf(s.Name)
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

// build expands, places and validates one definition into a Server.
func build(d definition, opts LoadOptions, root string) Server {
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
		return opts.resolveSecret(SecretRef{Scope: d.origin.Scope, File: d.origin.Source, Server: d.name, Name: name})
	}
	cfg, put, probs := d.raw.Expand(opts.lookup(), secret, root)
	s.Expanded = put
	dir := d.dir
	if dir == "" && d.origin.Source != InlineSource && d.origin.Source != "" {
		dir = filepath.Dir(d.origin.Source)
	}
	cfg.Cwd = workDir(cfg.Cwd, dir, root, d.origin.Scope, opts)
	s.Config = cfg
	s.HomeRelative = homeRelative(d.raw, cfg, d.origin.Scope, opts.Cwd)
	probs = append(probs, optInProblems(d.raw, d.origin.Scope)...)
	if len(d.problems) == 0 && len(probs) == 0 {
		probs = validate(cfg)
	}
	mask := textsafe.NewMasker(s.Secrets()...) // a problem may quote an expanded value
	for _, p := range probs {
		p.File, p.Server, p.Message = d.origin.Source, d.name, mask.Mask(p.Message)
		if d.file != nil && d.node != nil {
			p.Line, p.Col = jsondoc.LineCol(d.file.doc, jsondoc.Locate(d.node, p.Field).Start)
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
