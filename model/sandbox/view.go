package sandbox

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// View is a profile as a person reads it before trusting it (the approval
// prompt, `mcp get` and its --json): what the sandbox opens on this
// machine now, every ${VAR} expanded and every link resolved, what it
// keeps read-only inside what it writes, and what it does not open of
// what was asked, with why.
type View struct {
	// Project is the project the sandbox opens, NoProject why none.
	Project   string `json:"project,omitempty"`
	NoProject string `json:"noProject,omitempty"`
	// Shim is how a version manager's shim was resolved; Program the
	// file the sandbox runs then.
	Shim    *Shim    `json:"shim,omitempty"`
	Program string   `json:"program,omitempty"`
	Read    []string `json:"read"`
	// Write lists the write paths; the private temporary directory is
	// "private /tmp".
	Write []string `json:"write"`
	// ReadOnly is what stays read-only inside the write paths, and
	// Missing those of them that do not exist and cannot be created.
	ReadOnly []string `json:"readOnlyInWrite,omitempty"`
	Missing  []string `json:"cannotBeCreated,omitempty"`
	// NestedLimit says the search for repositories nested in a write
	// path stopped early: those beyond it are not protected.
	NestedLimit bool   `json:"nestedSearchStopped,omitempty"`
	Dropped     []Drop `json:"dropped,omitempty"`
	Network     string `json:"network"`
	// Env names the environment variables the server receives, when the
	// launcher says (nil: not worked out here).
	Env []string `json:"env,omitempty"`
}

// PrivateTemp is how a view names the sandbox's private /tmp.
const PrivateTemp = "private /tmp"

// View is p for a person.
func (p Profile) View() View {
	v := View{
		Project: p.Project, NoProject: p.NoProject, Shim: p.Shim, Read: slices.Clone(p.Read),
		ReadOnly: slices.Clone(p.ReadOnly), NestedLimit: p.NestedLimit, Dropped: slices.Clone(p.Dropped),
		Network: p.Network.String(), Env: slices.Clone(p.EnvNames),
	}
	if p.Shim != nil {
		v.Program = p.Program
	}
	for _, w := range p.Write {
		if w == p.TempDir {
			w = PrivateTemp
		}
		v.Write = append(v.Write, w)
	}
	if p.TempDir == "" {
		v.Write = append(v.Write, PrivateTemp) // worked out without starting: it is made at start
	}
	for _, ph := range p.Placeholders {
		v.Missing = append(v.Missing, ph.Path)
	}
	if v.Read == nil {
		v.Read = []string{}
	}
	return v
}

// Line is one labelled line of a View; Label is empty on a line that
// continues the one above.
type Line struct{ Label, Value string }

// Lines are v for people, paths under home shown with ~ (their values
// are not escaped: a caller that prints them escapes them as it does
// every string from outside).
func (v View) Lines(home string) []Line {
	short := func(p string) string { return tilde(p, home) }
	var out []Line
	list := func(label string, items []string) {
		for i, it := range items {
			if i > 0 {
				label = ""
			}
			out = append(out, Line{Label: label, Value: it})
		}
	}
	switch {
	case v.Project != "":
		how := "read-only"
		if slices.Contains(v.Write, v.Project) {
			how = "writable"
		}
		out = append(out, Line{"Project", short(v.Project) + " (" + how + ")"})
	case v.NoProject != "":
		out = append(out, Line{"Project", "none: " + v.NoProject})
	}
	if v.Shim != nil {
		out = append(out, Line{"Runs", short(v.Shim.Shim) + " → " + v.Shim.Manager + " → " + short(v.Shim.Interpreter)})
	}
	list("Reads", mapStrings(v.Read, short))
	list("Writes", mapStrings(v.Write, short))
	list("Read-only inside", v.groupedReadOnly(home))
	if v.NestedLimit {
		out = append(out, Line{"Nested repositories", "searched in the first " + strconv.Itoa(nestedMax) + " directories only: those beyond are not kept read-only"})
	}
	var drops []string
	for _, d := range v.Dropped {
		drops = append(drops, d.Text(home))
	}
	list("Not opened", drops)
	out = append(out, Line{"Network", v.Network})
	if v.Env != nil {
		out = append(out, Line{"Environment", strings.Join(v.Env, ", ")})
	}
	return out
}

// groupedReadOnly is what stays read-only inside the write paths, one
// line per write path: "~/src/proj: .git/config, .git/hooks, .envrc*"
// (* marks what does not exist and cannot be created).
func (v View) groupedReadOnly(home string) []string {
	type group struct {
		root  string
		names []string
	}
	var groups []*group
	add := func(path, mark string) {
		root := ""
		for _, w := range v.Write {
			if within(path, w) && len(w) > len(root) {
				root = w
			}
		}
		if root == "" {
			root = filepath.Dir(path)
		}
		if i := slices.IndexFunc(groups, func(g *group) bool { return g.root == root }); i >= 0 {
			groups[i].names = append(groups[i].names, rel(root, path)+mark)
			return
		}
		groups = append(groups, &group{root: root, names: []string{rel(root, path) + mark}})
	}
	for _, p := range v.ReadOnly {
		add(p, "")
	}
	for _, p := range v.Missing {
		add(p, "*")
	}
	var out []string
	for _, g := range groups {
		slices.Sort(g.names)
		out = append(out, tilde(g.root, home)+": "+strings.Join(g.names, ", "))
	}
	if len(v.Missing) > 0 {
		out = append(out, "(* does not exist yet and cannot be created)")
	}
	return out
}

// Text is the drop in words: "~/.ssh: never opened", "assets → ~:
// outside the project".
func (d Drop) Text(home string) string {
	s := tilde(d.Path, home)
	if d.Target != "" {
		s += " → " + tilde(d.Target, home)
	}
	return fmt.Sprintf("%s: %s", s, d.Reason)
}

// tilde is path with the home directory shown as ~.
func tilde(path, home string) string {
	if home == "" || path == PrivateTemp {
		return path
	}
	if path == home {
		return "~"
	}
	if within(path, home) {
		return "~" + string(filepath.Separator) + rel(home, path)
	}
	return path
}

func rel(base, path string) string {
	r, err := filepath.Rel(base, path)
	if err != nil {
		return path
	}
	return r
}

func mapStrings(in []string, f func(string) string) []string {
	out := make([]string, len(in))
	for i, s := range in {
		out[i] = f(s)
	}
	return out
}
