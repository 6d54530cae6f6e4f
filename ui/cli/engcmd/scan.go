package engcmd

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/scan"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// NewScanCmd is `mcpdeck scan [SERVER...]`: the poisoning scan of what
// servers tell a model (model/scan), offline and with no model.
func NewScanCmd(g *clicore.Globals) *cobra.Command {
	var sarif bool
	cmd := &cobra.Command{
		Use:   "scan [SERVER...]",
		Short: "Scan servers' tools, prompts, templates and instructions for tool poisoning",
		Long: "Connects the servers (all that may run, or those named) and reads what they tell a model for\n" +
			"instructions hidden from you (<IMPORTANT>, \"do not tell the user\", \"ignore previous\n" +
			"instructions\"), invisible characters (Unicode tag characters among them, spelled out),\n" +
			"references to secrets (~/.ssh, id_rsa, .env), a description that steers another server's tool\n" +
			"(shadowing), addresses to send data to, and oversized texts. Offline, with no model.\n" +
			"Exits 1 when a finding is a warning, or a named server could not be scanned; --sarif writes\n" +
			"SARIF 2.1.0 for code scanning.",
		Example: "  mcpdeck scan\n  mcpdeck scan github --json\n  mcpdeck scan --sarif > mcp.sarif",
		RunE: func(cmd *cobra.Command, args []string) error {
			if sarif && g.JSON {
				return clierr.Usagef("--sarif and --json are two outputs: choose one")
			}
			return clierr.Cancelled(runScan(cmd.Context(), g, args, sarif))
		},
	}
	cmd.Flags().BoolVar(&sarif, "sarif", false, "write the findings as SARIF 2.1.0 (for code-scanning CI)")
	return cmd
}

// errWarnings fails the scan (exit 1) after its report.
var errWarnings = errors.New("the scan found warnings")

func runScan(ctx context.Context, g *clicore.Globals, names []string, sarif bool) error {
	sess, err := clisession.StartSession(ctx, clisession.NewEngineFlags(g), names...)
	if err != nil {
		return err
	}
	defer sess.Close()
	want := names
	if len(want) == 0 {
		for _, srv := range sess.Last.Servers {
			if srv.Runnable {
				want = append(want, srv.Name)
			}
		}
	}
	settled, err := clisession.SettleList(ctx, sess, want, false)
	if err != nil {
		return err
	}
	if err := sess.WaitScanned(ctx, want); err != nil {
		return err
	}
	for i := range settled { // with their findings
		if srv, ok := sess.Server(settled[i].Name); ok {
			settled[i] = srv
		}
	}
	var findings []scan.Finding
	var unscanned []string
	sources := map[string]string{}
	for _, srv := range settled {
		sources[srv.Name] = srv.Source
		if o := clisession.OutcomeOf(srv); o != status.OutcomeConnected {
			unscanned = append(unscanned, fmt.Sprintf("%s (%s)", textsafe.SanitizeLine(srv.Name), o.Word()))
			continue
		}
		findings = append(findings, srv.Pins.Findings...)
	}
	if err := writeFindings(g, findings, sarif, sources); err != nil {
		return err
	}
	if len(unscanned) > 0 {
		fmt.Fprintf(g.Stderr, "mcpdeck: not scanned, as they did not connect: %s\n", strings.Join(unscanned, ", "))
	}
	switch {
	case scan.HasWarning(findings):
		return errWarnings
	case len(unscanned) > 0 && len(names) > 0:
		return clierr.SilentError{}
	}
	return nil
}

func writeFindings(g *clicore.Globals, fs []scan.Finding, sarif bool, sources map[string]string) error {
	switch {
	case sarif:
		src := func(server string) string {
			if s := sources[server]; filepath.IsAbs(s) {
				return filepath.ToSlash(s)
			}
			return ""
		}
		_, err := g.Stdout.Write(textsafe.EscapeJSON(scan.SARIF(fs, clicore.BuildVersion(), src)))
		return err
	case g.JSON:
		if fs == nil {
			fs = []scan.Finding{}
		}
		return cliout.WriteJSON(g.Stdout, fs)
	}
	if len(fs) == 0 {
		fmt.Fprintln(g.Stdout, "No findings.")
		return nil
	}
	for _, f := range fs {
		fmt.Fprintf(g.Stdout, "%s %s: %s, %s %s (%s): %s\n    %s\n", f.Level, f.Rule, textsafe.SanitizeLine(f.Server), f.Kind, textsafe.Escape(f.Item), f.Field, f.Message, f.Excerpt)
	}
	return nil
}
