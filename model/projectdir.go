package model

import "slices"

// ProjectDirVar is the variable a definition's cwd names to start in the
// project: in the cwd field and the sandbox's read and write paths, and
// only there, mcpdeck sets ${PROJECT_DIR} to the project root
// (Resolved.ProjectRoot), whatever the environment says.
// In the person's own definitions (user, --mcp-config) and managed ones it
// is how a server the working tree did not define opts in to running in
// it. In the project's .mcp.json and the local scope it means what no cwd
// means, the project root, so a repository gains nothing by writing it. A
// plugin may not use it: a plugin's files are not the person's choice.
const ProjectDirVar = "PROJECT_DIR"

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
func (c ServerConfig) NamesProjectDir() bool { return namesProjectDir(c.Cwd) }

// SandboxNamesProjectDir reports whether a path of the definition's
// sandbox, as written, refers to ${PROJECT_DIR}.
func (c ServerConfig) SandboxNamesProjectDir() bool {
	if c.Sandbox == nil {
		return false
	}
	for _, p := range append(slices.Clone(c.Sandbox.Read), c.Sandbox.Write...) {
		if namesProjectDir(p) {
			return true
		}
	}
	return false
}

// namesProjectDir reports whether s, as written, refers to ${PROJECT_DIR}.
func namesProjectDir(s string) bool {
	found := false
	Expand(s, func(name string) (string, bool) {
		found = found || name == ProjectDirVar
		return "", true
	})
	return found
}

// OptsIntoProject reports whether s starts in the project although the
// working tree did not define it: its own definition names ${PROJECT_DIR}
// in cwd. Then the project's files (ProjectRedirects) can change what its
// launcher runs, with its environment and secrets.
func (s Server) OptsIntoProject() bool {
	return !s.Scope.DefinedByProject() && s.RunsIn() != "" && s.Raw.NamesProjectDir()
}
