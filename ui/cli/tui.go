package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/muesli/termenv"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/ui"
	"github.com/mcpdeck/mcpdeck/ui/addserver"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// The TUI codes against ui.Engine; the real engine must satisfy it.
var _ ui.Engine = (*engine.Engine)(nil)

// errNoTerminal is returned when the TUI is started without a terminal.
var errNoTerminal = errors.New("the TUI needs a terminal; for scripts use 'mcpdeck mcp list' or 'mcpdeck call'")

// runTUI starts an engine with eo and runs the TUI on it until the person
// quits; the engine's servers are closed on the way out. reg, when not
// nil, lets + add servers from the MCP Registry.
func runTUI(ctx context.Context, g *clicore.Globals, eo engine.Options, title string, reg addserver.Registry) error {
	if !cliprompt.OnTerminal(g) {
		return errNoTerminal
	}
	if os.Getenv("NO_COLOR") != "" {
		lipgloss.SetColorProfile(termenv.Ascii)
	}
	bridge := ui.NewElicitBridge()
	eo.Elicit = bridge.Elicit
	eo.Sample = bridge.Sample
	eng, err := engine.New(eo)
	if err != nil {
		return err
	}
	defer func() { _ = eng.Close() }()
	defer bridge.Close() // runs first: pending prompts answer "cancel" before the engine closes
	if err := eng.Start(ctx); err != nil {
		return err
	}
	checkKeychainEarly(ctx, eo.Auth, eng.Snapshot())
	styles.DetectBackground(os.Getenv) // once, briefly, before Bubble Tea takes the terminal
	// URLs open through the one browser opener, judged by managed policy
	// as mcpdeck's own program.
	open := func(ctx context.Context, u string) error { return launch.Own(eng.ManagedPolicy()).OpenBrowser(ctx, u) }
	m := ui.New(eng, ui.Options{Context: ctx, Elicit: bridge, Title: title, Registry: reg, OpenURL: open, CopyText: clipboardWriter(g.RawStdout)})
	// The signals that end mcpdeck (SIGINT, SIGTERM, SIGHUP) reach the TUI
	// as ctx ending (Execute), never as Bubble Tea's own handler: with
	// both, Bubble Tea's handler could take the signal after ctx ended
	// the event loop and wait forever to hand it a QuitMsg, and the TUI
	// never exited.
	p := tea.NewProgram(m, tea.WithFPS(renderFPS), tea.WithAltScreen(), tea.WithContext(ctx), tea.WithoutSignalHandler(),
		tea.WithInput(g.Stdin), tea.WithOutput(g.RawStdout))
	if _, err := p.Run(); err != nil && !errors.Is(err, tea.ErrProgramKilled) && !errors.Is(err, context.Canceled) {
		return fmt.Errorf("the TUI stopped: %w", err)
	}
	printWarnings(g.Stderr, eng.Snapshot())
	return nil
}

// renderFPS is how often Bubble Tea's renderer wakes to draw a changed
// frame. Bubble Tea v1 draws on a ticker, never on change alone, and each
// tick costs a wake-up even when nothing changed: at its default 60 the
// idle TUI used about 0.5 % of a core, at 12 about 0.3 % with 50 servers
// connected (make bench-floor NEARFLOOR=idle50), and a key still shows
// within 83 ms.
const renderFPS = 12

// clipboardWriter copies text by sending it to the terminal w as OSC 52,
// in one write, so that no frame of the TUI's is cut by it: the terminal
// puts it on the clipboard of the machine it runs on, which over SSH is
// the person's own. Nothing runs a clipboard program (xclip, pbcopy) here.
func clipboardWriter(w io.Writer) func(text string) error {
	return func(text string) error {
		_, err := io.WriteString(w, ansi.SetSystemClipboard(text))
		return err
	}
}

// printWarnings shows the engine's one-time warnings after the TUI exits.
func printWarnings(w io.Writer, s engine.Snapshot) {
	for _, msg := range s.Warnings {
		fmt.Fprintln(w, "mcpdeck: "+msg)
	}
}

// checkKeychainEarly touches the keychain in the background when a remote
// server is configured, so that a missing or hanging keychain is found
// before the first sign-in has to wait for it (the warning itself appears
// only once a token is stored in the file). Servers without OAuth never
// cause a keychain prompt.
func checkKeychainEarly(ctx context.Context, auth engine.Authenticator, s engine.Snapshot) {
	c, ok := auth.(interface {
		CheckStore(context.Context) []string
	})
	if !ok {
		return
	}
	for _, srv := range s.Servers {
		if srv.Transport.Info().OAuth {
			go c.CheckStore(ctx) // bounded by the manager's keychain timeout
			return
		}
	}
}
