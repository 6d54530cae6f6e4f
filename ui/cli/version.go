package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// newVersionCmd is `mcpdeck version`: what --version says, for those who
// type the word (as `go version`, `kubectl version`). Its first word is
// the version servers are told and serve's agents see.
func newVersionCmd(g *clicore.Globals) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print mcpdeck's version (as --version): the one servers and agents are told",
		Args:  cliargs.NoArgs,
		RunE: func(*cobra.Command, []string) error {
			fmt.Fprintln(g.Stdout, "mcpdeck version "+clicore.BuildVersion())
			return nil
		},
	}
}
