package config

import (
	"encoding/json"
	"path/filepath"
	"sort"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/policy"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// merge turns definitions (in load order: plugins, user, project, local,
// dynamic — or enterprise alone) of the project at root into servers:
// expand, place (workDir) and validate each,
// drop plugin duplicates by signature, let the highest scope win per name,
// then apply approval, policy and the enabled state.
func merge(defs []jsonfile.Definition, opts LoadOptions, root string, pol policy.Rules, st private.Decisions) ([]model.Server, []Suppressed) {
	built := make([]model.Server, len(defs))
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
	out := make([]model.Server, 0, len(names))
	for _, name := range names {
		idx := byName[name]
		w := winner(built, idx)
		s := built[w]
		for k := len(idx) - 1; k >= 0; k-- { // hidden definitions, highest first
			if i := idx[k]; i != w {
				s.Overrides = append(s.Overrides, model.Origin{Scope: built[i].Scope, Source: built[i].Source})
			}
		}
		sort.SliceStable(s.Overrides, func(a, b int) bool { return s.Overrides[a].Scope > s.Overrides[b].Scope })
		if s.Scope == model.ScopeProject {
			s.Approval = st.Approval(s.Name, s.Raw, s.Hash)
		}
		s.ManagedPolicy = model.NewPolicy(pol)
		s.Policy = decideServer(pol, s, opts)
		s.Enabled = !st.Disabled(s.Name)
		s.Sampling = st.Sampling(s.Name)
		out = append(out, s)
	}
	return out, suppressed
}

// decideServer applies the policy to s, finding a stdio server's program
// with the one resolver, as the launcher will.
func decideServer(pol policy.Rules, s model.Server, opts LoadOptions) model.PolicyDecision {
	var prog model.Program
	found := false
	if s.Config.EffectiveType().Info().Program {
		var err error
		prog, err = ServerProgram(s.Config, opts.Cwd, opts.lookup())
		found = err == nil
	}
	return pol.Decide(s.Name, s.Config, prog, found)
}

// winner picks the definition that applies: the highest scope; within one
// scope the last one loaded (a later --mcp-config overrides an earlier one),
// except plugins, where the first loaded wins as in the dedup rule.
func winner(built []model.Server, idx []int) int {
	w := idx[0]
	for _, i := range idx[1:] {
		s, cur := built[i].Scope, built[w].Scope
		if s > cur || (s == cur && s != model.ScopePlugin) {
			w = i
		}
	}
	return w
}

// build expands, places and validates one definition into a Server.
func build(d jsonfile.Definition, opts LoadOptions, root string) model.Server {
	s := model.Server{
		Name:     d.Name,
		Scope:    d.Origin.Scope,
		Source:   d.Origin.Source,
		Raw:      d.Raw,
		Hash:     model.ConfigHash(d.Raw),
		Problems: d.Problems,
		Approval: model.Approval{Status: model.ApprovalNotNeeded},
	}
	secret := func(name string) (string, error) {
		return opts.resolveSecret(SecretRef{Scope: d.Origin.Scope, File: d.Origin.Source, Server: d.Name, Name: name})
	}
	cfg, put, probs := d.Raw.Expand(opts.lookup(), secret, root)
	s.Expanded = put
	dir := d.Dir
	if dir == "" && d.Origin.Source != inlineSource && d.Origin.Source != "" {
		dir = filepath.Dir(d.Origin.Source)
	}
	cfg.Cwd = workDir(cfg.Cwd, dir, root, d.Origin.Scope, opts)
	cfg.Sandbox = placeSandbox(cfg.Sandbox, cfg.Cwd, opts.Home)
	s.Config = cfg
	s.HomeRelative = homeRelative(d.Raw, cfg, d.Origin.Scope, opts.Cwd)
	probs = append(probs, optInProblems(d.Raw, d.Origin.Scope)...)
	probs = append(probs, socketProblems(d.Raw, d.Origin.Scope)...)
	if len(d.Problems) == 0 && len(probs) == 0 {
		probs = validate(cfg)
	}
	mask := textsafe.NewMasker(s.Secrets()...) // a problem may quote an expanded value
	for _, p := range probs {
		p.File, p.Server, p.Message = d.Origin.Source, d.Name, mask.Mask(p.Message)
		if d.File != nil && d.Node != nil {
			p.Line, p.Col = jsondoc.LineCol(d.File.Doc, jsondoc.Locate(d.Node, p.Field).Start)
		}
		s.Problems = append(s.Problems, p)
	}
	return s
}

// signature identifies what a server runs: the program and its args, or
// the URL of a remote server. Built-in servers have none (they are never duplicates), nor do
// definitions without a command or URL (broken ones run nothing, so they
// duplicate nothing).
func signature(cfg model.ServerConfig) string {
	t := cfg.EffectiveType().Info()
	switch {
	case t.Program && strings.TrimSpace(cfg.Command) != "":
		b, _ := json.Marshal(append([]string{cfg.Command}, cfg.Args...))
		return string(t.Name) + ":" + string(b)
	case t.Remote && strings.TrimSpace(cfg.URL) != "":
		return "url:" + strings.TrimSpace(cfg.URL)
	}
	return ""
}

// dedup hides duplicates: a plugin (or connector) server whose signature
// equals a manually configured server's is suppressed (manual wins); between
// plugins the first loaded wins.
func dedup(built []model.Server) (keep []bool, suppressed []Suppressed) {
	keep = make([]bool, len(built))
	manual := map[string]int{}
	for i, s := range built {
		keep[i] = true
		if s.Scope != model.ScopePlugin && s.Scope != model.ScopeConnector {
			if sig := signature(s.Config); sig != "" {
				if _, ok := manual[sig]; !ok {
					manual[sig] = i
				}
			}
		}
	}
	plugins := map[string]int{}
	for i, s := range built {
		if s.Scope != model.ScopePlugin && s.Scope != model.ScopeConnector {
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
				Name: s.Name, Origin: model.Origin{Scope: s.Scope, Source: s.Source},
				By: built[by].Name, ByOrigin: model.Origin{Scope: built[by].Scope, Source: built[by].Source},
				Signature: sig,
			})
			continue
		}
		plugins[sig] = i
	}
	return keep, suppressed
}
