// Package doctor is `mcpdeck doctor`: checks of the configuration, the
// programs servers need, the keychain, proxies, clocks and every server
// that may run, and with --bundle an archive of all that (secrets masked)
// to send to a maintainer.
package doctor

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/oauth"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// A doctor line's verdict.
const (
	docOK   = "✓"
	docBad  = "✗" // something is wrong: doctor exits 1
	docWarn = "!" // worth knowing, not wrong
	docInfo = "•"
)

// docLine is one finding: a verdict and a sentence, and for a ✗ what to
// do about it.
type docLine struct{ mark, text, fix string }

// String is the line as doctor prints it (and the bundle keeps it): the
// verdict and the sentence, then the fix indented on a line of its own.
func (l docLine) String() string {
	out := textsafe.SanitizeLine(l.mark + " " + l.text)
	if l.fix != "" {
		out += "\n  fix: " + textsafe.SanitizeLine(l.fix)
	}
	return out
}

// NewCmd is `mcpdeck doctor`: one line per thing that usually goes
// wrong (config files, the programs servers are started with, the
// keychain, each server, the clock against remote servers, proxies), and
// exit 1 when something is wrong. --bundle FILE also writes all of it, and
// what the servers did, into one archive for a maintainer (bundle.go).
func NewCmd(g *clicore.Globals) *cobra.Command {
	var bundle string
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Check what usually goes wrong (config, programs on PATH, keychain, servers, clock, proxies)",
		Long: "Prints one line per check: ✓ fine, ✗ wrong (with what to do), ! worth knowing, • for information.\n" +
			"Servers are connected like `mcp list` does (only those that may run). Exits 1 when a check failed.\n\n" +
			"--bundle FILE also writes a tar.gz for a maintainer: mcpdeck's version and system, this report, the\n" +
			"merged config (each server's scope and file), each server's state history, stderr tail and JSON-RPC\n" +
			"traffic, with env, header, URL and stored secrets and tokens masked. It never replaces a file.",
		Args: cliargs.ExactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return clierr.Cancelled(runDoctor(cmd.Context(), clisession.NewEngineFlags(g), bundle))
		},
	}
	cmd.Flags().StringVar(&bundle, "bundle", "", "also write everything, secrets masked, to the new tar.gz `FILE`")
	return cmd
}

func runDoctor(ctx context.Context, f *clisession.EngineFlags, bundle string) error {
	g := f.Globals
	if bundle != "" { // refused before the checks, which take seconds, not after them
		switch st, err := os.Lstat(bundle); {
		case err == nil && st.Mode()&fs.ModeSymlink != 0:
			return fmt.Errorf("--bundle: refusing to write %s: it is a symbolic link", bundle)
		case err == nil:
			return fmt.Errorf("--bundle: refusing to write %s: %w (choose a new name)", bundle, fs.ErrExist)
		}
	}
	lo, err := g.SecretLoadOptions() // as the servers it connects will have them (and the bundle masks them)
	if err != nil {
		return err
	}
	res, err := g.Load(lo)
	if err != nil {
		return err
	}
	var lines []docLine
	lines = append(lines, configChecks(res)...)
	lines = append(lines, workDirChecks(res)...)
	lines = append(lines, programChecks(ctx, res)...)
	lines = append(lines, keychainCheck(ctx, g))
	lines = append(lines, sandboxCheck(ctx, res))
	servers, run, err := doctorServers(ctx, f)
	if err != nil {
		return err
	}
	lines = append(lines, servers...)
	lines = append(lines, clockChecks(ctx, res)...)
	lines = append(lines, proxyChecks(os.Getenv)...)
	bad := false
	mask := g.RunMask() // every server's secret set: a line about one may quote another's
	for i, l := range lines {
		lines[i].text, lines[i].fix = mask.Mask(l.text), mask.Mask(l.fix)
		fmt.Fprintln(g.Stdout, lines[i].String())
		bad = bad || l.mark == docBad
	}
	if bundle != "" {
		rep, err := writeBundle(ctx, g, bundle, bundleInput{res: res, report: lines, run: run, version: clicore.BuildVersion()})
		if err != nil {
			return err
		}
		rep.print(g.Stdout)
	}
	if bad {
		return clierr.SilentError{}
	}
	return nil
}

// configChecks: every config file that exists, and each file problem with
// its place.
func configChecks(res *config.Resolved) []docLine {
	var out []docLine
	broken := map[string]bool{}
	for _, p := range res.Problems {
		broken[p.File] = true
		out = append(out, docLine{mark: docBad, text: "config: " + p.Error(), fix: "correct the file at that place; until then what it defines is not loaded"})
	}
	for _, f := range res.Files {
		if st, err := os.Stat(f); err == nil && st.Mode().IsRegular() && !broken[f] {
			out = append(out, docLine{mark: docOK, text: "config: " + f + " parsed"})
		}
	}
	if len(out) == 0 {
		out = append(out, docLine{mark: docInfo, text: "config: no config files yet (add a server with: mcpdeck mcp add NAME -- COMMAND)"})
	}
	return out
}

// workDirChecks: each server outside the project whose relative paths now
// name something under home, and each that opted in to run in the project.
func workDirChecks(res *config.Resolved) []docLine {
	var out []docLine
	for _, s := range res.Servers {
		if len(s.HomeRelative) > 0 {
			out = append(out, docLine{mark: docWarn, text: clicore.HomeRelativeText(s)})
		}
		if s.OptsIntoProject() {
			out = append(out, docLine{mark: docInfo, text: "server " + textsafe.SanitizeLine(s.Name) + ": " + clicore.OptInText()})
		}
	}
	return out
}

// launchers are the programs servers are commonly started with.
var launchers = []string{"npx", "node", "uvx", "docker"}

// programChecks: each launcher on PATH, needed or not, and Node's version.
func programChecks(ctx context.Context, res *config.Resolved) []docLine {
	needed := map[string][]string{}
	for _, s := range res.Servers {
		if !s.Config.EffectiveType().Info().Program || !s.Runnable() {
			continue
		}
		base := strings.TrimSuffix(filepath.Base(s.Config.Command), filepath.Ext(s.Config.Command))
		needed[base] = append(needed[base], s.Name)
		if base == "npx" {
			needed["node"] = append(needed["node"], s.Name)
		}
	}
	var out []docLine
	for _, p := range launchers {
		prog, err := model.ResolveProgram(p, nil, nil, "", os.LookupEnv) // as the launcher finds a server's program
		path := prog.Path
		users := needed[p]
		switch {
		case err != nil && len(users) > 0:
			out = append(out, docLine{
				mark: docBad, text: fmt.Sprintf("%s: not found on PATH, and %s need it", p, strings.Join(users, ", ")),
				fix: "install " + p + ", or add the directory it is in to PATH",
			})
		case err != nil:
			out = append(out, docLine{mark: docInfo, text: p + ": not found on PATH (no server needs it)"})
		case p == "node":
			out = append(out, docLine{mark: docOK, text: "node " + nodeVersion(ctx, res.ManagedPolicy, path) + " (" + path + ")"})
		default:
			out = append(out, docLine{mark: docOK, text: p + ": " + path})
		}
	}
	return out
}

// nodeVersion asks node for its version, within 3 s, through the one
// launcher: managed policy may forbid it like any program.
func nodeVersion(ctx context.Context, pol model.Policy, path string) string {
	b, err := launch.Own(pol).Run(ctx, launch.Spec{Command: path, Args: []string{"--version"}}, nil,
		platform.Limits{Timeout: 3 * time.Second, MaxOutput: 4 << 10})
	if err != nil {
		return "(version unknown: " + err.Error() + ")"
	}
	return strings.TrimSpace(string(b))
}

// keychainCheck says where tokens and ${secret:…} values are stored: the
// store's own answer after a write like a token's (oauth.Manager.Storage),
// so it cannot say "keychain" while they go to the file.
func keychainCheck(ctx context.Context, g *clicore.Globals) docLine {
	lo, err := g.LoadOptions()
	if err != nil {
		return docLine{mark: docWarn, text: "keychain: not checked: " + err.Error()}
	}
	return storageLine(clisession.NewOAuthManager(lo, g.Stderr, false).Storage(ctx))
}

// storageLine words where the store keeps secrets.
func storageLine(s oauth.Storage) docLine {
	if s.Keychain {
		return docLine{mark: docOK, text: "keychain: tokens and secrets are stored in the system keychain"}
	}
	return docLine{mark: docWarn, text: "keychain: not usable (" + s.Reason + "): tokens and secrets are stored in " + s.File + " (0600)"}
}

// doctorRun is what the servers did while doctor connected them: the last
// snapshot and each server's traffic, for a bundle.
type doctorRun struct {
	snap    engine.Snapshot
	traffic map[string][]engine.Frame
	dropped map[string]int
}

// doctorServers connects every server that may run, like `mcp list`, and
// says how each ended.
func doctorServers(ctx context.Context, f *clisession.EngineFlags) ([]docLine, doctorRun, error) {
	s, err := clisession.StartSession(ctx, f)
	if err != nil {
		return nil, doctorRun{}, err
	}
	defer s.Close()
	results, err := clisession.SettleList(ctx, s, nil, false)
	if err != nil {
		return nil, doctorRun{}, err
	}
	run := doctorRun{snap: s.Eng.Snapshot(), traffic: map[string][]engine.Frame{}, dropped: map[string]int{}}
	for _, srv := range run.snap.Servers {
		run.traffic[srv.Name], run.dropped[srv.Name] = s.Eng.Traffic(srv.Name)
	}
	clisession.SortLikeSnapshot(results, s.Last)
	out := make([]docLine, 0, len(results))
	for _, srv := range results {
		l := docLine{mark: docOK, text: "server " + strings.TrimSpace(strings.TrimPrefix(clisession.ListLine(srv), status.Mark(&srv)))}
		switch clisession.OutcomeOf(srv) {
		case status.OutcomeFailed:
			l.mark, l.fix = docBad, serverFix(&srv)
		case status.OutcomeConnected:
		default:
			l.mark = docInfo
		}
		out = append(out, l)
	}
	for _, w := range run.snap.Warnings { // what the TUI lists under ? (an editor's lock file it ignored)
		out = append(out, docLine{mark: docWarn, text: textsafe.SanitizeLine(w)})
	}
	return out, run, nil
}

// proxyChecks names the proxy variables set (credentials masked).
func proxyChecks(getenv func(string) string) []docLine {
	var set []string
	for _, k := range []string{"HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy"} {
		if v := getenv(k); v != "" {
			set = append(set, k+"="+textsafe.NewMasker().Mask(v))
		}
	}
	if len(set) == 0 {
		return []docLine{{mark: docInfo, text: "proxy: none set"}}
	}
	return []docLine{{mark: docInfo, text: "proxy: " + strings.Join(set, " ") + " (remote servers are reached through it, except NO_PROXY hosts)"}}
}
