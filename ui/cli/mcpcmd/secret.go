package mcpcmd

import (
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/authcmd"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// newMCPSecretCmd is `mcp secret SERVER NAME [-s user|local] [--delete]`:
// store (or delete) the value a definition's ${secret:NAME} takes, bound
// to that server in that scope.
func newMCPSecretCmd(g *clicore.Globals) *cobra.Command {
	var del bool
	cmd := &cobra.Command{
		Use:   "secret SERVER NAME [-s user|local] [--delete]",
		Short: "Store the value of a server's ${secret:NAME} in mcpdeck's secret store (keychain), or delete it",
		Long: "A user or local definition may refer to ${secret:NAME}; its value lives in mcpdeck's secret\n" +
			"store (the keychain, else a 0600 file), bound to that server in that scope. The value is read\n" +
			"from MCPDECK_SECRET_VALUE, a hidden prompt, or a line of standard input.",
		Example: "  mcpdeck mcp secret github GITHUB_TOKEN -s user\n  mcpdeck mcp secret github GITHUB_TOKEN -s user --delete",
		Args:    cliargs.ExactArgs(2, "a SERVER and a secret NAME"),
	}
	scope := cliargs.AddScopeFlag(cmd, model.ScopeLocal, "the scope of the server's definition: local or user (a project's .mcp.json cannot use the store)")
	cmd.Flags().BoolVar(&del, "delete", false, "delete the secret instead")
	cmd.RunE = func(cmd *cobra.Command, args []string) error {
		s := scope()
		if !s.MayUseSecrets() {
			return clierr.Usagef("only user and local definitions may use mcpdeck's secret store; the %s scope cannot", s)
		}
		ref := config.SecretRef{Scope: s, Server: args[0], Name: args[1]}
		if !model.ValidSecretName(ref.Name) {
			return clierr.Usagef("secret NAME %q may contain only letters, digits and _ (and not start with a digit)", ref.Name)
		}
		opts, err := g.LoadOptions()
		if err != nil {
			return err
		}
		if ref.File, err = config.ScopePath(opts, s); err != nil {
			return err
		}
		store := g.SecretStore(opts.ConfigDir)
		if del {
			err := store.Delete(cmd.Context(), ref)
			if errors.Is(err, config.ErrSecretNotFound) {
				return fmt.Errorf("no secret %s is stored for %s in the %s scope", ref.Name, textsafe.SanitizeLine(ref.Server), s)
			}
			if err != nil {
				return err
			}
			fmt.Fprintf(g.Stdout, "Deleted the secret %s of %s (%s scope).\n", ref.Name, textsafe.SanitizeLine(ref.Server), s)
			return nil
		}
		v, err := authcmd.ReadSecret(g, "MCPDECK_SECRET_VALUE", "value of "+ref.Name)
		if err != nil {
			return err
		}
		if err := store.Set(cmd.Context(), ref, v); err != nil {
			return fmt.Errorf("storing the secret %s: %w", ref.Name, err)
		}
		fmt.Fprintf(g.Stdout, "Stored the secret %s of %s (%s scope); its definition refers to it as %s.\n",
			ref.Name, textsafe.SanitizeLine(ref.Server), s, model.SecretReference(ref.Name))
		if w := store.Warning(); w != "" {
			fmt.Fprintln(g.Stderr, "mcpdeck: "+w)
		}
		return nil
	}
	return cmd
}
