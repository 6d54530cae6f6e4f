package mcpcmd

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
)

// newMCPMigrateLocalCmd is `mcp migrate-local`: the one way content of a
// project's .mcpdeck/settings.local.json (where older versions kept private
// state) becomes trusted. It shows everything that would take effect and
// moves it only when the person types yes at a terminal.
func newMCPMigrateLocalCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "migrate-local",
		Short: "Move this project's old .mcpdeck/settings.local.json into your private settings, after showing it",
		Long: "Older mcpdeck versions kept local servers, approvals and permissions in\n" +
			".mcpdeck/settings.local.json inside the project. A repository can ship that file, so\n" +
			"mcpdeck no longer reads it. If you wrote it, this command shows what it holds and, once\n" +
			"you confirm at the terminal, moves it into your private settings for this project (in\n" +
			"mcpdeck's config directory) and deletes it from the project.",
		Args: cliargs.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			opts, err := g.LoadOptions()
			if err != nil {
				return err
			}
			m, err := config.ReadUntrustedLocal(opts)
			if errors.Is(err, model.ErrNotFound) {
				fmt.Fprintf(g.Stdout, "Nothing to migrate: %s does not exist.\n", textsafe.SanitizeLine(m.From))
				return nil
			}
			if err != nil {
				return err
			}
			writeMigration(g.Stdout, m)
			in, ok := g.Stdin.(*os.File)
			if !ok || !term.IsTerminal(in.Fd()) {
				return fmt.Errorf("%w: nothing was moved: confirming the move needs a terminal, so run %s in one", model.ErrInvalid, private.MigrateLocalCommand)
			}
			yes, err := cliprompt.Confirm(g, fmt.Sprintf("Move this into %s and delete it from the project?", textsafe.SanitizeLine(m.To)))
			if err != nil {
				return err
			}
			if !yes {
				fmt.Fprintln(g.Stdout, "Nothing was moved.")
				return nil
			}
			done, err := config.MigrateLocal(opts, m.Hash)
			if err != nil {
				return err
			}
			for _, s := range done.Skipped {
				fmt.Fprintf(g.Stdout, "Kept your existing %s (the file's was not moved).\n", textsafe.SanitizeLine(s))
			}
			fmt.Fprintf(g.Stdout, "Moved into %s; deleted %s.\n", textsafe.SanitizeLine(done.To), textsafe.SanitizeLine(done.From))
			return nil
		},
	}
}

// writeMigration shows everything m would make trusted. Values that look
// like secrets are masked; everything else is shown exactly, with control
// characters escaped, because the file may have come from a repository.
func writeMigration(w io.Writer, m private.LocalMigration) {
	fmt.Fprintf(w, "%s is inside the project, where a repository could have put it.\n", textsafe.SanitizeLine(m.From))
	fmt.Fprintln(w, "Moving it makes all of the following trusted. Continue only if you wrote this file yourself.")
	names := m.ServerNames()
	if len(names) > 0 {
		fmt.Fprintln(w, "\nServers that would run without asking (local scope):")
	}
	for _, n := range names {
		writeMigratedServer(w, n, m.Servers[n])
	}
	lines := []struct {
		label string
		items []string
	}{
		{"Approves these project (.mcp.json) servers", m.Approved},
		{"Approves these project servers by name", m.EnabledMcpjson},
		{"Rejects these project servers", m.DisabledMcpjson},
		{"Disables these servers", m.Disabled},
		{"Allows these tools without asking", m.Permissions.Allow},
		{"Denies these tools", m.Permissions.Deny},
	}
	fmt.Fprintln(w)
	for _, l := range lines {
		if len(l.items) > 0 {
			fmt.Fprintf(w, "%s: %s\n", l.label, escapeAll(l.items))
		}
	}
	if m.EnableAll {
		fmt.Fprintln(w, "Approves every project server (enableAllProjectMcpServers).")
	}
	for _, p := range m.Problems {
		fmt.Fprintf(w, "Not moved: %s\n", textsafe.SanitizeLine(p.Error()))
	}
}

// writeMigratedServer prints one definition, one field per line.
func writeMigratedServer(w io.Writer, name string, c model.ServerConfig) {
	fmt.Fprintf(w, "  %s (%s)\n", textsafe.Escape(name), c.EffectiveType())
	field := func(label, v string) {
		if v != "" {
			fmt.Fprintf(w, "      %-8s %s\n", label, v)
		}
	}
	field("command", textsafe.Escape(c.Command))
	for _, a := range c.Args {
		field("arg", quoteArg(a))
	}
	field("cwd", textsafe.Escape(c.Cwd))
	field("url", textsafe.Escape(model.Redact(model.ServerConfig{URL: c.URL}).URL))
	for _, kv := range []struct {
		label string
		m     map[string]string
	}{{"env", c.Env}, {"header", c.Headers}} {
		for _, k := range slices.Sorted(maps.Keys(kv.m)) {
			v := kv.m[k]
			if textsafe.IsLiteralSecret(k, v) {
				v = textsafe.Masked
			}
			field(kv.label, textsafe.Escape(k)+"="+textsafe.Escape(v))
		}
	}
	field("headers helper", textsafe.Escape(c.HeadersHelper))
	if o := c.OAuth; o != nil {
		field("oauth", textsafe.Escape(fmt.Sprintf("client %q, metadata %q, scopes %q, grant %q", o.ClientID, o.AuthServerMetadataURL, o.Scopes, o.Grant)))
	}
}

// quoteArg shows one argument exactly, quoted so spaces are visible.
func quoteArg(a string) string { return `"` + textsafe.Escape(a) + `"` }

func escapeAll(items []string) string {
	out := make([]string, len(items))
	for i, s := range items {
		out[i] = textsafe.Escape(s)
	}
	return strings.Join(out, ", ")
}
