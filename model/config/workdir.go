package config

import (
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// ServerProgram resolves the program of a stdio server's definition: it
// starts in cfg.Cwd, taken relative to cwd (mcpdeck's working directory)
// when it is relative, and in cwd when it is empty.
func ServerProgram(cfg model.ServerConfig, cwd string, lookupEnv func(string) (string, bool)) (model.Program, error) {
	dir := cfg.Cwd
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(cwd, dir)
	}
	return model.ResolveProgram(cfg.Command, cfg.Args, cfg.Env, dir, lookupEnv)
}

// ProjectRedirects names, for people, the files in a working tree that
// change what a package launcher started there runs: why only servers the
// project defines start in it.
const ProjectRedirects = "node_modules and .npmrc (npm, npx), uv.toml and pyproject.toml (uv, uvx), pip.conf (pip), NuGet.Config (dnx)"

// optInProblems refuses ${PROJECT_DIR} in the cwd or the sandbox paths of
// raw, a definition of scope s the person did not write: a plugin's (or a connector's). Every
// other scope may name it.
func optInProblems(raw model.ServerConfig, s model.Scope) []model.Problem {
	if s != model.ScopePlugin && s != model.ScopeConnector {
		return nil
	}
	var out []model.Problem
	if raw.NamesProjectDir() {
		out = append(out, model.Problem{Field: "cwd", Message: "${" + model.ProjectDirVar + "} is for your own definitions, not a plugin's: " +
			"copy the server to your user scope to run it in the project"})
	}
	if raw.SandboxNamesProjectDir() {
		out = append(out, model.Problem{Field: "sandbox", Message: "${" + model.ProjectDirVar + "} is for your own definitions, not a plugin's: " +
			"copy the server to your user scope to open the project in its sandbox"})
	}
	return out
}

// socketProblems refuses sandbox.sockets in a definition of any scope
// but the user's: a unix socket is a door out of every sandbox, opened
// only by the person's own settings, never by a file a project, a plugin
// or a --mcp-config ships.
func socketProblems(raw model.ServerConfig, s model.Scope) []model.Problem {
	if raw.Sandbox == nil || len(raw.Sandbox.Sockets) == 0 || s == model.ScopeUser {
		return nil
	}
	return []model.Problem{{Field: "sandbox.sockets", Message: "only a user-scope definition may open unix sockets to a sandbox; this one is " + s.String() +
		" scope: copy the server to your user scope to let it reach a socket"}}
}

// workDir is the absolute directory a server of scope starts in, from its
// expanded cwd: none means the project root for servers the project
// defines (Scope.DefinedByProject) and the home directory for every other;
// "~" and "~/x" are under home; a relative cwd is relative to dir, the
// directory of the file that defines it (a repository's .mcp.json saying
// "cwd": "tools" means its own tools/, a local server's the project root),
// or, for inline --mcp-config JSON (dir ""), to the directory mcpdeck was
// started in, where the person typed it. The result never depends on the
// process's own working directory, so the launcher never falls back to it.
func workDir(cwd, dir, root string, scope model.Scope, opts LoadOptions) string {
	home := filepath.Clean(opts.Home)
	switch {
	case cwd == "" && scope.DefinedByProject():
		return root
	case cwd == "":
		return home
	case filepath.IsAbs(cwd):
		return filepath.Clean(cwd)
	case cwd == "~":
		return home
	case strings.HasPrefix(cwd, "~/"):
		return filepath.Join(home, cwd[2:])
	case dir == "":
		return filepath.Join(opts.Cwd, cwd)
	}
	return filepath.Join(dir, cwd)
}

// placeSandbox makes the paths of an expanded sandbox absolute, as
// workDir does a cwd: "~" and "~/x" are under home, a relative path is
// relative to runsIn, the directory the server starts in.
func placeSandbox(s *model.Sandbox, runsIn, home string) *model.Sandbox {
	if s == nil {
		return nil
	}
	out := *s
	place := func(in []string) []string {
		if in == nil {
			return nil
		}
		ps := make([]string, len(in))
		for i, p := range in {
			switch {
			case p == "~":
				p = home
			case strings.HasPrefix(p, "~/"):
				p = filepath.Join(home, p[2:])
			case !filepath.IsAbs(p):
				p = filepath.Join(runsIn, p)
			}
			ps[i] = filepath.Clean(p)
		}
		return ps
	}
	out.Read, out.Write, out.Sockets = place(s.Read), place(s.Write), place(s.Sockets)
	return &out
}
