package model

import (
	"path/filepath"
	"strings"
)

// ProjectDirVar is the variable a definition's cwd names to start in the
// project: in the cwd field, and only there, mcpdeck sets ${PROJECT_DIR} to
// the project root (Resolved.ProjectRoot), whatever the environment says.
// In the person's own definitions (user, --mcp-config) and managed ones it
// is how a server the working tree did not define opts in to running in
// it. In the project's .mcp.json and the local scope it means what no cwd
// means, the project root, so a repository gains nothing by writing it. A
// plugin may not use it: a plugin's files are not the person's choice.
const ProjectDirVar = "PROJECT_DIR"

// ProjectRedirects names, for people, the files in a working tree that
// change what a package launcher started there runs: why only servers the
// project defines start in it.
const ProjectRedirects = "node_modules and .npmrc (npm, npx), uv.toml and pyproject.toml (uv, uvx), pip.conf (pip), NuGet.Config (dnx)"

// DefinedByProject reports whether servers of scope s belong to the
// working tree they run in: the project's .mcp.json, and the person's
// local servers of that project. They start in the project root. Every
// other server starts in the home directory unless its definition sets
// cwd, so files in a working tree (ProjectRedirects) cannot change what a
// server they did not define runs.
func (s Scope) DefinedByProject() bool { return s == ScopeProject || s == ScopeLocal }

// optInProblems refuses ${PROJECT_DIR} in the cwd of raw, a definition of
// scope s the person did not write: a plugin's (or a connector's). Every
// other scope may name it.
func optInProblems(raw ServerConfig, s Scope) []Problem {
	if (s != ScopePlugin && s != ScopeConnector) || !raw.NamesProjectDir() {
		return nil
	}
	return []Problem{{Field: "cwd", Message: "${" + ProjectDirVar + "} is for your own definitions, not a plugin's: " +
		"copy the server to your user scope to run it in the project"}}
}

// cwdLookup is the variable lookup of a cwd field: ${PROJECT_DIR} is the
// project root, every other variable is lookup's.
func cwdLookup(lookup func(string) (string, bool), root string) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if name == ProjectDirVar {
			return root, true
		}
		return lookup(name)
	}
}

// NamesProjectDir reports whether the definition's cwd, as written, refers
// to ${PROJECT_DIR}.
func (c ServerConfig) NamesProjectDir() bool {
	found := false
	Expand(c.Cwd, func(name string) (string, bool) {
		found = found || name == ProjectDirVar
		return "", true
	})
	return found
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
func workDir(cwd, dir, root string, scope Scope, opts LoadOptions) string {
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

// RunsIn is the directory a stdio server's process starts in (its
// resolved cwd), "" for servers mcpdeck starts no process for.
func (s Server) RunsIn() string {
	if s.Config.EffectiveType() != TransportStdio {
		return ""
	}
	return s.Config.Cwd
}

// OptsIntoProject reports whether s starts in the project although the
// working tree did not define it: its own definition names ${PROJECT_DIR}
// in cwd. Then the project's files (ProjectRedirects) can change what its
// launcher runs, with its environment and secrets.
func (s Server) OptsIntoProject() bool {
	return !s.Scope.DefinedByProject() && s.RunsIn() != "" && s.Raw.NamesProjectDir()
}
