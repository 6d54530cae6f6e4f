package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// newMCPLockCmd is `mcp lock`: the lock file a team commits beside its
// .mcp.json, and --check, the CI gate that fails on drift from it.
func newMCPLockCmd(g *clicore.Globals) *cobra.Command {
	var check bool
	cmd := &cobra.Command{
		Use:   "lock [--check]",
		Short: "Write " + pins.LockFileName + " beside .mcp.json (each project server's tool hashes), or --check it",
		Long: "Connects every approved project server and writes, beside .mcp.json, the hash of each tool,\n" +
			"prompt, resource template and the instructions it gives, with its name and version, for the\n" +
			"team to commit. Then mcpdeck withholds anything that differs from it on every machine, until\n" +
			"the person there reviews it. The file can only make mcpdeck stricter: it never approves,\n" +
			"accepts or allows anything. A server with changes you have not reviewed is not written\n" +
			"(mcpdeck mcp review NAME first).\n" +
			"--check exits 1 naming each item that differs from the file: a CI gate (approve the\n" +
			"servers there first: mcpdeck mcp approve all).",
		Example: "  mcpdeck mcp lock\n  mcpdeck mcp approve all && mcpdeck mcp lock --check",
		Args:    cliargs.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return clierr.Cancelled(runLock(cmd.Context(), g, check))
		},
	}
	cmd.Flags().BoolVar(&check, "check", false, "compare the servers with the lock file; exit 1 naming each difference")
	return cmd
}

// lockDrift is one difference --check --json reports.
type lockDrift struct {
	Server string      `json:"server"`
	Kind   pins.Kind   `json:"kind,omitempty"`
	Name   string      `json:"name,omitempty"`
	Status pins.Status `json:"status,omitempty"`
	// Problem says why the server could not be compared.
	Problem string `json:"problem,omitempty"`
}

// lockDoc is `mcp lock --json`.
type lockDoc struct {
	LockFile string      `json:"lockFile"`
	Written  bool        `json:"written,omitempty"`
	Drift    []lockDrift `json:"drift"`
}

func runLock(ctx context.Context, g *clicore.Globals, check bool) error {
	opts, err := g.LoadOptions()
	if err != nil {
		return err
	}
	res, err := g.Load(opts)
	if err != nil {
		return err
	}
	var project []model.Server
	for _, s := range res.Servers {
		if s.Scope == model.ScopeProject && filepath.IsAbs(s.Source) {
			project = append(project, s)
		}
	}
	if len(project) == 0 {
		return fmt.Errorf("%w: no project servers (.mcp.json) to lock here", model.ErrNotFound)
	}
	path := filepath.Join(filepath.Dir(project[0].Source), pins.LockFileName)
	old, probs, err := pins.ReadLock(path)
	if err != nil {
		return err
	}
	for _, p := range probs {
		fmt.Fprintf(g.Stderr, "mcpdeck: %s: %s\n", path, textsafe.Escape(p))
	}
	if check && old == nil {
		return fmt.Errorf("%w: no lock file %s (mcpdeck mcp lock writes it)", model.ErrNotFound, path)
	}
	listed, notes, err := listProject(ctx, g, project)
	if err != nil {
		return err
	}
	doc := lockDoc{LockFile: path, Drift: notes}
	if check {
		doc.Drift = append(doc.Drift, checkLock(old, listed)...)
		failed := ""
		if len(doc.Drift) > 0 {
			failed = fmt.Sprintf("%d difference(s) from %s", len(doc.Drift), path)
		}
		return reportLock(g, doc, failed)
	}
	next := &pins.Lock{Servers: map[string]*pins.LockServer{}}
	for _, s := range project { // a server that could not be listed keeps its entry
		if old != nil && old.Servers[s.Name] != nil {
			next.Servers[s.Name] = old.Servers[s.Name]
		}
	}
	for _, srv := range listed {
		if n := srv.Pins.Withheld(); n > 0 {
			doc.Drift = append(doc.Drift, lockDrift{Server: srv.Name, Problem: fmt.Sprintf("%d change(s) you have not reviewed: mcpdeck mcp review %s", n, textsafe.QuoteArg(srv.Name))})
			continue
		}
		next.Servers[srv.Name] = pins.NewLockServer(srv.ServerInfo.Name, srv.ServerInfo.Version, srv.Pins.Items)
	}
	if len(doc.Drift) > 0 {
		return reportLock(g, doc, fmt.Sprintf("nothing written: %d server(s) could not be locked", len(doc.Drift)))
	}
	if err := platform.WriteFile(path, next.Encode(), platform.WriteOptions{NewMode: 0o644, Within: filepath.Dir(path)}); err != nil {
		return fmt.Errorf("writing %s: %w", path, err)
	}
	doc.Written = true
	return reportLock(g, doc, "")
}

// listProject connects the project servers that may run and returns the
// connected ones; each other one is a lockDrift naming why it could not
// be listed.
func listProject(ctx context.Context, g *clicore.Globals, project []model.Server) ([]engine.ServerSnapshot, []lockDrift, error) {
	var names []string
	var notes []lockDrift
	for _, s := range project {
		if s.Runnable() {
			names = append(names, s.Name)
			continue
		}
		why := "it may not run here"
		if bs := s.Blockers(); len(bs) > 0 {
			why = "it cannot run here: " + status.CannotRun(bs[0], s.Name, status.InCLI)
		}
		notes = append(notes, lockDrift{Server: s.Name, Problem: why})
	}
	if len(names) == 0 {
		return nil, notes, nil
	}
	sess, err := clisession.StartSession(ctx, clisession.NewEngineFlags(g), names...)
	if err != nil {
		return nil, nil, err
	}
	defer sess.Close()
	settled, err := clisession.SettleList(ctx, sess, names, false)
	if err != nil {
		return nil, nil, err
	}
	var out []engine.ServerSnapshot
	for _, srv := range settled {
		if o := clisession.OutcomeOf(srv); o != status.OutcomeConnected {
			notes = append(notes, lockDrift{Server: srv.Name, Problem: "it did not connect: " + o.Word() + " " + status.Reason(&srv)})
			continue
		}
		out = append(out, srv)
	}
	return out, notes, nil
}

// checkLock is every difference between the listed servers and the lock.
func checkLock(lock *pins.Lock, listed []engine.ServerSnapshot) []lockDrift {
	var out []lockDrift
	for _, srv := range listed {
		entry := lock.Servers[srv.Name]
		if entry == nil {
			out = append(out, lockDrift{Server: srv.Name, Problem: "it is not in the lock file"})
			continue
		}
		for _, c := range entry.Drift(srv.Pins.Items, srv.Pins.Listed) {
			out = append(out, lockDrift{Server: srv.Name, Kind: c.Kind, Name: c.Name, Status: c.Status})
		}
	}
	return out
}

// reportLock prints doc; failed ("" for none) fails the command, exit 1,
// after it.
func reportLock(g *clicore.Globals, doc lockDoc, failed string) error {
	if g.JSON {
		if err := cliout.WriteJSON(g.Stdout, doc); err != nil {
			return err
		}
	} else {
		for _, d := range doc.Drift {
			if d.Problem != "" {
				fmt.Fprintf(g.Stdout, "%s: %s\n", textsafe.SanitizeLine(d.Server), d.Problem)
				continue
			}
			fmt.Fprintf(g.Stdout, "%s: %s %s\n", textsafe.SanitizeLine(d.Server), itemName(d.Kind, d.Name), d.Status)
		}
		switch {
		case doc.Written:
			fmt.Fprintf(g.Stdout, "Wrote %s.\n", doc.LockFile)
		case failed == "":
			fmt.Fprintf(g.Stdout, "Every project server matches %s.\n", doc.LockFile)
		}
	}
	switch {
	case failed != "" && g.JSON:
		return clierr.SilentError{}
	case failed != "":
		return errors.New(failed)
	}
	return nil
}
