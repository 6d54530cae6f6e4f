package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/private"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// noNotice lists the commands that never print the untrusted-file notice:
// help and completion, the migration itself (it shows the file in full),
// the demo (not the person's configuration) and the hidden stdio servers.
var noNotice = map[string]bool{
	"help": true, "completion": true, "__complete": true, "__completeNoDesc": true,
	"migrate-local": true, "demo": true, "demo-server": true,
}

// tellUntrustedOnce says once, in a sentence on stderr, that the project's
// .mcpdeck/settings.local.json is no longer trusted and how to move it,
// then records that the person was told (until the file's content
// changes). The TUI shows the same sentence among its notices instead (the
// engine adds it to its warnings) and records it when it exits.
func tellUntrustedOnce(g *clicore.Globals, cmd *cobra.Command) {
	if noNotice[cmd.Name()] || !cmd.HasParent() {
		return
	}
	opts, err := g.LoadOptions()
	if err != nil {
		return // the command itself reports it
	}
	u, err := config.FindUntrusted(opts)
	if err != nil || u == nil || u.Told {
		return
	}
	fmt.Fprintln(g.Stderr, "mcpdeck: "+textsafe.SanitizeLine(u.Notice()))
	markUntrustedTold(g, opts, *u)
}

// markUntrustedTold records the notice as shown; failing to record it only
// means it is shown again, which the person is told.
func markUntrustedTold(g *clicore.Globals, opts config.LoadOptions, u private.UntrustedLocal) {
	if err := config.MarkUntrustedTold(opts, u); err != nil {
		fmt.Fprintln(g.Stderr, "mcpdeck: could not remember that this was shown: "+clierr.Sentence(err))
	}
}
