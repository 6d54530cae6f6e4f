package mcpcmd

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/imports"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
)

// Import outcomes, as printed and in --json. present: the server's file
// is one mcpdeck reads itself (Claude Code's .mcp.json is mcpdeck's
// project file), so there is nothing to import.
const (
	importImported     = "imported"
	importSkipped      = "skipped"
	importNotConverted = "not-converted"
	importPresent      = "present"
)

// importOutcome is what happened to one server found in the other client.
type importOutcome struct {
	Name      string          `json:"name"`
	Status    string          `json:"status"`
	Reason    string          `json:"reason,omitempty"`
	Transport model.Transport `json:"transport,omitempty"`
	// Scope and File say where an imported server was written; a project
	// server needs approval before it runs.
	Scope         model.Scope `json:"scope,omitempty"`
	File          string      `json:"file,omitempty"`
	NeedsApproval bool        `json:"needsApproval,omitempty"`
	Source        string      `json:"source"`
	Origin        string      `json:"origin,omitempty"`
	Notes         []string    `json:"notes,omitempty"`
}

// importReport is the document `mcp import --json` prints. Scope is the
// one -s named; without it each server goes where importTarget says.
type importReport struct {
	From     string          `json:"from"`
	Scope    model.Scope     `json:"scope,omitempty"`
	Files    []string        `json:"files"` // files found and read
	Servers  []importOutcome `json:"servers"`
	Problems []string        `json:"problems"` // files that could not be read
}

// clientTitle is how reports name a client.
func clientTitle(c imports.Client) string {
	switch c {
	case imports.ClaudeDesktop:
		return "Claude Desktop"
	case imports.ClaudeCode:
		return "Claude Code"
	case imports.VSCode:
		return "VS Code"
	case imports.Cursor:
		return "Cursor"
	}
	return string(c)
}

// newMCPAddFromClaudeDesktopCmd is Claude Code's `mcp
// add-from-claude-desktop`: mcp import --from claude-desktop.
func newMCPAddFromClaudeDesktopCmd(g *clicore.Globals) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "add-from-claude-desktop [-s SCOPE]",
		Short: "Copy Claude Desktop's servers into mcpdeck's config (mcp import --from claude-desktop)",
		Args:  cliargs.ExactArgs(0, "no arguments"),
	}
	scope := cliargs.AddScopeFlag(cmd, 0, "put every server in this scope (default: user)")
	cmd.RunE = func(*cobra.Command, []string) error { return runImport(g, imports.ClaudeDesktop, "", scope()) }
	return cmd
}

func newMCPImportCmd(g *clicore.Globals) *cobra.Command {
	var from, file string
	names := make([]string, 0, len(imports.Clients()))
	for _, c := range imports.Clients() {
		names = append(names, string(c))
	}
	cmd := &cobra.Command{
		Use:   "import --from " + strings.Join(names, "|") + " [-s SCOPE] [--file PATH]",
		Short: "Copy the servers another MCP client knows into mcpdeck's config",
		Long: "Reads the other client's config from its usual places (or --file) and adds\n" +
			"each server to the scope of yours that matches where the client keeps it: its\n" +
			"user-wide servers to your user scope, its per-project ones to local (-s puts\n" +
			"them all in one scope). It reports per server the scope it went to, or:\n" +
			"skipped (the name exists), not converted (and why, e.g. a VS Code ${input:...}\n" +
			"prompt), or present (in a file mcpdeck reads itself: .mcp.json). Servers read\n" +
			"from a file inside a repository (.vscode/, .cursor/ or any file under this\n" +
			"directory) always go to the project scope (.mcp.json) and run only once\n" +
			"approved, whatever -s says.\n\n" +
			"  claude-desktop  <config dir>/Claude/claude_desktop_config.json (mcpServers)\n" +
			"  claude-code     ~/.claude.json (mcpServers, projects[<this dir>].mcpServers), ./.mcp.json\n" +
			"  vscode          ./.vscode/mcp.json, ./.vscode/settings.json, <config dir>/Code/User/{mcp,settings}.json\n" +
			"  cursor          ./.cursor/mcp.json, ~/.cursor/mcp.json",
		Example: "  mcpdeck mcp import --from claude-desktop\n  mcpdeck mcp import --from cursor -s user --file ~/backup/cursor-mcp.json",
		Args:    cliargs.ExactArgs(0, "no arguments (name the client with --from)"),
	}
	cmd.Flags().Var(cliargs.NewEnumFlag(&from, names...), "from", "the client to import from")
	cmd.Flags().StringVar(&file, "file", "", "read this file (in the client's format) instead of the usual places")
	scope := cliargs.AddScopeFlag(cmd, 0, "put every server in this scope (default: user for the client's user-wide servers, local for the rest)")
	cmd.RunE = func(*cobra.Command, []string) error {
		if from == "" {
			return clierr.Usagef("mcp import needs --from %s", strings.Join(names, "|"))
		}
		client, _ := imports.ParseClient(from)
		return runImport(g, client, file, scope())
	}
	return cmd
}

// importEntries adds every converted entry that does not clash with an
// existing server (in any scope) or with one imported earlier in this run
// into the same scope, each to importTarget's scope. Two of a name that go
// to different scopes are both kept, as the client keeps them (Claude
// Code's user server and this project's server of the same name), and the
// later one notes which of them wins where both apply. An entry read from
// a file mcpdeck reads itself is already there (present).
func importEntries(opts config.LoadOptions, scope model.Scope, found imports.Result, stderr io.Writer) (importReport, error) {
	rep := importReport{Scope: scope, Files: found.Read, Servers: []importOutcome{}, Problems: []string{}}
	for _, p := range found.Problems {
		rep.Problems = append(rep.Problems, clierr.Sentence(p))
	}
	existing, err := config.Load(opts)
	if err != nil {
		return rep, err
	}
	run := importRun{opts: opts, scope: scope, existing: existing, imported: map[scopedName]string{}, stderr: stderr}
	for _, e := range found.Entries {
		o, err := run.entry(e)
		if err != nil {
			return rep, err
		}
		rep.Servers = append(rep.Servers, o)
	}
	noteWontRun(opts, &rep)
	return rep, nil
}

// scopedName is a server name, normalized, in the scope it is imported to.
type scopedName struct {
	scope model.Scope
	name  string
}

// importRun is one import's state: what was there before it, and the
// source each name already imported in this run came from.
type importRun struct {
	opts     config.LoadOptions
	scope    model.Scope
	existing *config.Resolved
	imported map[scopedName]string
	stderr   io.Writer
}

// entry decides and, if it adds, writes one entry; an error stops the
// whole import (no server can be written).
func (r importRun) entry(e imports.Entry) (importOutcome, error) {
	o := importOutcome{Name: e.Name, Source: e.Source, Origin: e.Origin, Notes: e.Notes}
	if sc, awaits, ok := readByMcpdeck(r.existing, e); ok {
		o.Status, o.Scope, o.NeedsApproval = importPresent, sc, awaits
		o.Reason = fmt.Sprintf("mcpdeck reads %s itself: it is your %s scope", e.Source, sc)
		return o, nil
	}
	target := importTarget(r.scope, e)
	key := scopedName{target, model.NormalizeName(e.Name)}
	switch {
	case e.Reason != "":
		o.Status, o.Reason = importNotConverted, e.Reason
		return o, nil
	case r.imported[key] != "":
		o.Status = importSkipped
		o.Reason = fmt.Sprintf("a server of this name was already imported into your %s scope from %s", target, r.imported[key])
		return o, nil
	}
	if s, ok := r.existing.Server(e.Name); ok {
		sc, src := s.Scope, s.Source // name the one in the target scope, if there is one
		for _, ov := range s.Overrides {
			if ov.Scope == target {
				sc, src = ov.Scope, ov.Source
			}
		}
		o.Status = importSkipped
		o.Reason = fmt.Sprintf("a server named %s already exists in the %s scope (%s)", s.Name, sc, src)
		return o, nil
	}
	return r.add(o, e, target, key)
}

// add writes e into target's file and says how that went.
func (r importRun) add(o importOutcome, e imports.Entry, target model.Scope, key scopedName) (importOutcome, error) {
	o.Transport = e.Config.EffectiveType()
	path, err := config.AddServer(r.opts, target, e.Name, e.Config)
	switch {
	case err == nil:
		o.Status, o.Scope, o.File = importImported, target, path
		o.NeedsApproval = target == model.ScopeProject
		if !e.Shared { // a repository's own values are already shared
			warnLiteralSecrets(r.stderr, target, e.Name, e.Config)
		}
		if e.Shared && r.scope != model.ScopeProject {
			o.Notes = append(o.Notes, "it comes from a file inside a repository, so it went to the project scope and runs only once approved")
		}
		for other := range r.imported {
			if other.name == key.name {
				o.Notes = append(o.Notes, precedenceNote(target, other.scope, e.Name))
			}
		}
		r.imported[key] = e.Source
	case errors.Is(err, model.ErrFileUnusable): // no server can be written: say so once
		return o, fmt.Errorf("cannot import into the %s scope: %s", target, strings.TrimSuffix(clierr.Sentence(err), "."))
	case errors.Is(err, model.ErrExists):
		o.Status, o.Reason = importSkipped, clierr.Sentence(err)
	case errors.Is(err, model.ErrInvalid):
		o.Status, o.Reason = importNotConverted, clierr.Sentence(err)
	default: // the target file cannot be written: stop, nothing else will work
		return o, err
	}
	return o, nil
}

// precedenceNote says which of two servers named name, one imported into
// scope and one imported earlier into other, runs where both apply.
func precedenceNote(scope, other model.Scope, name string) string {
	if other > scope {
		return fmt.Sprintf("where both apply, the %s scope's %s, imported above, takes precedence over it", other, name)
	}
	return fmt.Sprintf("where both apply, it takes precedence over the %s scope's %s, imported above", other, name)
}

// importTarget is the scope of yours an entry goes to: the project scope
// for a file inside a repository (whoever can commit wrote it: it waits
// for approval), else the scope -s named, else the one matching where the
// client keeps it: a client's user-wide servers (Claude Desktop's, Claude
// Code's ~/.claude.json mcpServers, the editors' user files) in your user
// scope, the rest (Claude Code's per-project servers) in local.
func importTarget(scope model.Scope, e imports.Entry) model.Scope {
	switch {
	case e.Shared:
		return model.ScopeProject
	case scope != 0:
		return scope
	case e.Origin == imports.OriginUser:
		return model.ScopeUser
	}
	return model.ScopeLocal
}

// readByMcpdeck reports whether e was read from the file that holds
// mcpdeck's own definition of that name (Claude Code's .mcp.json is
// mcpdeck's project file), in which of mcpdeck's scopes, and whether that
// definition, the one that runs, still awaits the person's approval.
func readByMcpdeck(existing *config.Resolved, e imports.Entry) (scope model.Scope, awaits, ok bool) {
	s, found := existing.Server(e.Name)
	if !found {
		return 0, false, false
	}
	same := func(path string) bool { return filepath.Clean(path) == filepath.Clean(e.Source) }
	if same(s.Source) {
		return s.Scope, s.AwaitsApproval(), true
	}
	for _, o := range s.Overrides {
		if same(o.Source) {
			return o.Scope, false, true
		}
	}
	return 0, false, false
}

// noteWontRun adds a note to each imported server that will not run as the
// configuration stands: managed-mcp.json in effect, or a managed-policy block.
func noteWontRun(opts config.LoadOptions, rep *importReport) {
	after, err := config.Load(opts)
	if err != nil {
		return
	}
	for i, o := range rep.Servers {
		if o.Status != importImported {
			continue
		}
		switch s, ok := after.Server(o.Name); {
		case after.Enterprise:
			rep.Servers[i].Notes = append(rep.Servers[i].Notes, config.ManagedMCPFile+" is in effect, so mcpdeck ignores this server while that file exists")
		case ok && !s.Policy.Allowed:
			rep.Servers[i].Notes = append(rep.Servers[i].Notes, "managed policy blocks it ("+s.Policy.Rule+"), so it will not run")
		}
	}
}

// writeImportReport prints one line per server, naming the scope of yours
// each went to, one line per file mcpdeck reads itself, and a summary.
func writeImportReport(w io.Writer, rep importReport, title string) {
	into := ""
	if rep.Scope != 0 {
		into = fmt.Sprintf(" into the %s scope", rep.Scope)
	}
	fmt.Fprintf(w, "Importing from %s (%s)%s:\n", title, strings.Join(rep.Files, ", "), into)
	counts := map[string]int{}
	present := map[string][]string{} // file → names mcpdeck reads there itself
	var presentFiles []string
	for _, o := range rep.Servers {
		counts[o.Status]++
		switch o.Status {
		case importPresent:
			if present[o.Source] == nil {
				presentFiles = append(presentFiles, o.Source)
			}
			present[o.Source] = append(present[o.Source], textsafe.SanitizeLine(o.Name))
			continue
		case importImported:
			from := o.Source
			if o.Origin != "" {
				from += ", " + o.Origin
			}
			into := fmt.Sprintf(" into your %s scope", o.Scope)
			if o.NeedsApproval {
				into = "" // the next line says where
			}
			fmt.Fprintf(w, "  ✓ %s: imported%s (%s, from %s)\n", textsafe.SanitizeLine(o.Name), into, o.Transport, textsafe.SanitizeLine(from))
			if o.NeedsApproval {
				fmt.Fprintf(w, "      into the %s scope (%s), awaiting approval\n", o.Scope, textsafe.SanitizeLine(o.File))
			}
		case importSkipped:
			fmt.Fprintf(w, "  - %s: skipped: %s\n", textsafe.SanitizeLine(o.Name), textsafe.SanitizeLine(o.Reason))
		default:
			fmt.Fprintf(w, "  ✗ %s: not converted: %s\n", textsafe.SanitizeLine(o.Name), textsafe.SanitizeLine(o.Reason))
		}
		for _, n := range o.Notes {
			fmt.Fprintf(w, "      note: %s\n", textsafe.SanitizeLine(n))
		}
	}
	for _, f := range presentFiles {
		fmt.Fprintf(w, "  = %s is a file mcpdeck reads itself; already yours: %s\n", textsafe.SanitizeLine(f), strings.Join(present[f], ", "))
	}
	if len(rep.Servers) == 0 {
		fmt.Fprintln(w, "  (no servers defined there)")
	}
	summary := fmt.Sprintf("Imported %d, skipped %d, not converted %d.", counts[importImported], counts[importSkipped], counts[importNotConverted])
	if n := counts[importPresent]; n > 0 {
		summary = strings.TrimSuffix(summary, ".") + fmt.Sprintf("; %d already in mcpdeck.", n)
	}
	fmt.Fprintln(w, summary)
	// name the servers that wait (imported into the project scope now, or
	// there already): a general line after importing none misleads
	var waiting []string
	for _, o := range rep.Servers {
		if o.NeedsApproval && !slices.Contains(waiting, o.Name) {
			waiting = append(waiting, textsafe.SanitizeLine(o.Name))
		}
	}
	switch len(waiting) {
	case 0:
	case 1:
		fmt.Fprintf(w, "Project server %s runs only once approved: mcpdeck mcp approve %s\n", waiting[0], textsafe.QuoteArg(waiting[0]))
	default:
		fmt.Fprintf(w, "Project servers %s run only once approved: mcpdeck mcp approve NAME|all\n", strings.Join(waiting, ", "))
	}
}

// runImport copies the servers client knows (read from file, or its
// usual places) into scope (0: where each belongs) and reports each.
func runImport(g *clicore.Globals, client imports.Client, file string, scope model.Scope) error {
	opts, err := g.LoadOptions()
	if err != nil {
		return err
	}
	env := imports.Env{Home: opts.Home, ConfigDir: filepath.Dir(opts.ConfigDir), Cwd: opts.Cwd}
	var found imports.Result
	if file != "" {
		found, err = imports.ReadFile(client, file, env)
	} else {
		found, err = imports.Read(client, env)
	}
	if err != nil {
		return err
	}
	if len(found.Read) == 0 {
		return fmt.Errorf("%w: no %s configuration found (looked in %s)", model.ErrNotFound, clientTitle(client), strings.Join(found.Files, ", "))
	}
	rep, err := importEntries(opts, scope, found, g.Stderr)
	if err != nil {
		return err
	}
	rep.From = string(client)
	if g.JSON {
		if err := cliout.WriteJSON(g.Stdout, rep); err != nil {
			return err
		}
	} else {
		writeImportReport(g.Stdout, rep, clientTitle(client))
	}
	for _, p := range rep.Problems {
		fmt.Fprintln(g.Stderr, "mcpdeck: "+p)
	}
	if len(rep.Problems) > 0 {
		return clierr.SilentError{}
	}
	return nil
}
