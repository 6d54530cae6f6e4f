// Package authcmd is `mcpdeck auth SERVER`: sign in to a remote server or
// sign out, after storing the credentials its flags name (client secret,
// private key, ID token) in the keychain. How a secret is read (ReadSecret)
// and a client secret stored (StoreClientSecret) is shared with `mcp add
// --client-secret` and `mcp secret`.
package authcmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"
	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/oauth"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliargs"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
	"github.com/mcpdeck/mcpdeck/ui/status"
)

// NewCmd is `mcpdeck auth SERVER` (sign in: OAuth in the browser, or
// the server's machine-to-machine grant) and `mcpdeck auth --logout SERVER`
// (revoke the tokens where the authorization server offers it, and delete
// them).
func NewCmd(g *clicore.Globals) *cobra.Command {
	var logout, withSecret, withKey, withIDToken, withIDPSecret bool
	cmd := &cobra.Command{
		Use:   "auth SERVER",
		Short: "Sign in to a remote server (OAuth), or sign out with --logout",
		Long: "Sign in to an sse or http server: mcpdeck opens your browser (or $BROWSER) on the\n" +
			"server's sign-in page and shows the URL to copy; tokens go to the OS keychain.\n" +
			"Servers configured with oauth.grant client_credentials or xaa sign in without a browser.\n\n" +
			"--client-secret stores the secret of a pre-registered client (oauth.clientId) in the\n" +
			"keychain first, read from MCPDECK_CLIENT_SECRET or a hidden prompt.",
		Example: "  mcpdeck auth my-api\n  mcpdeck auth --client-secret my-api\n  mcpdeck auth --logout my-api",
		Args:    cliargs.ExactArgs(1, "a server name"),
		RunE: func(cmd *cobra.Command, args []string) error {
			lo, err := g.SecretLoadOptions() // the server's headers may hold a ${secret:NAME}
			if err != nil {
				return err
			}
			srv, err := authServer(g, lo, args[0], logout)
			if err != nil {
				return err
			}
			m := clisession.NewOAuthManager(lo, g.Stderr, false)
			defer printAuthWarnings(g.Stderr, m)
			if !logout {
				for _, c := range storableSecrets(m, withSecret, withKey, withIDToken, withIDPSecret) {
					v, err := ReadSecret(g, c.env, c.what)
					if err != nil {
						return err
					}
					if err := c.set(srv, v); err != nil {
						return fmt.Errorf("storing the %s: %w", c.what, err)
					}
				}
			}
			if logout {
				did, err := m.Logout(cmd.Context(), srv)
				if err != nil {
					return err
				}
				return printSignout(g, srv.Name, did)
			}
			show := func(u string) {
				fmt.Fprintf(g.Stderr, "Sign in to %s in your browser. If it did not open, visit:\n  %s\n%s\n", srv.Name, u, status.SignInElsewhere(u))
			}
			if err := m.Authenticate(cmd.Context(), srv, show); err != nil {
				return fmt.Errorf("signing in to %s: %w", srv.Name, err)
			}
			return printAuthResult(g, srv.Name, "signed-in", "Signed in to %s.\n")
		},
	}
	cmd.Flags().BoolVar(&logout, "logout", false, "delete the server's tokens, revoking them where the authorization server offers it")
	cmd.Flags().BoolVar(&withSecret, "client-secret", false,
		"store the pre-registered client's secret (from MCPDECK_CLIENT_SECRET or a hidden prompt) before signing in")
	cmd.Flags().BoolVar(&withKey, "private-key", false,
		"store the PEM private key for private_key_jwt client authentication (from MCPDECK_CLIENT_PRIVATE_KEY or standard input)")
	cmd.Flags().BoolVar(&withIDToken, "id-token", false,
		"store the enterprise IdP ID token for cross-app access (from MCPDECK_IDP_ID_TOKEN or a hidden prompt)")
	cmd.Flags().BoolVar(&withIDPSecret, "idp-client-secret", false,
		"store mcpdeck's client secret at the enterprise IdP for cross-app access (from MCPDECK_IDP_CLIENT_SECRET or a hidden prompt)")
	return cmd
}

// authServer finds a server that may be signed in to: remote, allowed by
// policy, and approved if it came from a project. Signing out needs only a
// remote server: it talks to the revocation endpoint recorded at sign-in,
// never to the server, so a blocked or unapproved one can still be left.
func authServer(g *clicore.Globals, lo config.LoadOptions, name string, logout bool) (model.Server, error) {
	r, err := g.Load(lo)
	if err != nil {
		return model.Server{}, err
	}
	srv, ok := r.Server(name)
	if !ok {
		return model.Server{}, clisession.UnknownServer(name, clinames.ServerNames(r))
	}
	if t := srv.Config.EffectiveType(); !t.Info().OAuth {
		return model.Server{}, fmt.Errorf("server %s uses %s: %w", name, t, model.ErrNoSignIn)
	}
	if logout {
		return srv, nil
	}
	// What stops a server from running stops a sign-in, but your own
	// disable: one may sign in to a server before turning it on.
	for _, b := range srv.Blockers() {
		if b.Kind != model.ReasonDisabledByYou {
			return model.Server{}, fmt.Errorf("server %s cannot be signed in to: %s", name, status.CannotRun(b, name, status.InCLI))
		}
	}
	return srv, nil
}

// storableSecret is a credential `mcpdeck auth` can put in the keychain
// before signing in, so that it never has to live in a config file.
type storableSecret struct {
	what, env string
	set       func(model.Server, string) error
}

// storableSecrets lists the credentials whose flags were given, in the
// order they are asked for.
func storableSecrets(m *oauth.Manager, secret, key, idToken, idpSecret bool) []storableSecret {
	var out []storableSecret
	for _, c := range []struct {
		on bool
		s  storableSecret
	}{
		{secret, storableSecret{"client secret", "MCPDECK_CLIENT_SECRET", m.SetClientSecret}},
		{key, storableSecret{"private key", "MCPDECK_CLIENT_PRIVATE_KEY", m.SetPrivateKey}},
		{idToken, storableSecret{"IdP ID token", "MCPDECK_IDP_ID_TOKEN", m.SetIDToken}},
		{idpSecret, storableSecret{"IdP client secret", "MCPDECK_IDP_CLIENT_SECRET", m.SetIDPClientSecret}},
	} {
		if c.on {
			out = append(out, c.s)
		}
	}
	return out
}

// ReadClientSecret reads the client secret as ReadSecret does.
func ReadClientSecret(g *clicore.Globals) (string, error) {
	return ReadSecret(g, "MCPDECK_CLIENT_SECRET", "client secret")
}

// ReadSecret takes the environment variable env, else asks without echo on
// a terminal, else reads standard input (all of it, so a PEM key can be
// piped in).
func ReadSecret(g *clicore.Globals, env, what string) (string, error) {
	if s := os.Getenv(env); s != "" {
		return s, nil
	}
	if f, ok := g.Stdin.(*os.File); ok && term.IsTerminal(f.Fd()) {
		fmt.Fprintf(g.Stderr, "%s: ", what)
		b, err := term.ReadPassword(f.Fd())
		fmt.Fprintln(g.Stderr)
		if err != nil {
			return "", fmt.Errorf("reading the %s: %w", what, err)
		}
		return strings.TrimSpace(string(b)), nil
	}
	var in string
	var err error
	if strings.HasSuffix(env, "PRIVATE_KEY") { // a PEM block spans lines: take the rest of stdin
		var b []byte
		b, err = io.ReadAll(g.Input())
		in = string(b)
	} else {
		in, err = g.Input().ReadString('\n')
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading the %s: %w", what, err)
	}
	if s := strings.TrimSpace(in); s != "" {
		return s, nil
	}
	return "", clierr.Usagef("no %s given: set %s or pass it on standard input", what, env)
}

func printAuthResult(g *clicore.Globals, name, word, text string) error {
	if g.JSON {
		return cliout.WriteJSON(g.Stdout, map[string]string{"server": name, "status": word})
	}
	_, err := fmt.Fprintf(g.Stdout, text, name)
	return err
}

// printSignout says what signing out did with the tokens: "revoked" only
// when the authorization server revoked them. With --json, "tokens" is
// "revoked", "deleted" or "none".
func printSignout(g *clicore.Globals, name string, did oauth.Signout) error {
	word, text := "none", "Signed out of %s: no tokens were stored.\n"
	switch did {
	case oauth.SignoutRevoked:
		word, text = "revoked", "Signed out of %s: tokens revoked and deleted.\n"
	case oauth.SignoutDeleted:
		word, text = "deleted", "Signed out of %s: tokens deleted (the server offers no revocation).\n"
	case oauth.SignoutNoTokens:
	}
	if g.JSON {
		return cliout.WriteJSON(g.Stdout, map[string]string{"server": name, "status": "signed-out", "tokens": word})
	}
	_, err := fmt.Fprintf(g.Stdout, text, name)
	return err
}

func printAuthWarnings(w io.Writer, m *oauth.Manager) {
	for _, s := range m.Warnings() {
		fmt.Fprintln(w, "mcpdeck: warning: "+s)
	}
}

// StoreClientSecret keeps a just-added server's client secret in the keychain
// (or the 0600 credentials file, with a warning), keyed like its tokens by
// name and config hash, so the secret never reaches a config file.
func StoreClientSecret(g *clicore.Globals, lo config.LoadOptions, name, secret string) error {
	r, err := g.Load(lo)
	if err != nil {
		return err
	}
	srv, ok := r.Server(name)
	if !ok {
		return fmt.Errorf("server %s was added but cannot be read back to store its client secret", name)
	}
	m := clisession.NewOAuthManager(lo, g.Stderr, false)
	defer printAuthWarnings(g.Stderr, m)
	if err := m.SetClientSecret(srv, secret); err != nil {
		return fmt.Errorf("storing the client secret of %s: %w", name, err)
	}
	where := "the OS keychain"
	if len(m.Warnings()) > 0 { // the manager fell back to its 0600 file and says so below
		where = "mcpdeck's private credentials file"
	}
	fmt.Fprintf(g.Stdout, "Stored the client secret of %s in %s (never in a config file).\n", name, where)
	return nil
}
