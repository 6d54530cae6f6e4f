package authcmd

import (
	"bytes"
	"errors"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/oauth"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// TestReadSecretsFromOnePipe guards `mcpdeck auth --client-secret
// --private-key` fed through a pipe: each secret takes its own line and a
// PEM key takes the rest, with nothing lost between reads.
func TestReadSecretsFromOnePipe(t *testing.T) {
	for _, env := range []string{"MCPDECK_CLIENT_SECRET", "MCPDECK_IDP_ID_TOKEN", "MCPDECK_CLIENT_PRIVATE_KEY"} {
		t.Setenv(env, "")
	}
	pem := "-----BEGIN PRIVATE KEY-----\nAAAA\nBBBB\n-----END PRIVATE KEY-----"
	g := &clicore.Globals{Stdin: strings.NewReader("s3cret\nid.tok.en\n" + pem + "\n"), Stderr: &bytes.Buffer{}}
	for _, c := range []struct{ env, what, want string }{
		{"MCPDECK_CLIENT_SECRET", "client secret", "s3cret"},
		{"MCPDECK_IDP_ID_TOKEN", "IdP ID token", "id.tok.en"},
		{"MCPDECK_CLIENT_PRIVATE_KEY", "private key", pem},
	} {
		got, err := ReadSecret(g, c.env, c.what)
		if err != nil || got != c.want {
			t.Fatalf("readSecret(%s) = %q, %v; want %q", c.what, got, err, c.want)
		}
	}
	_, err := ReadSecret(g, "MCPDECK_IDP_CLIENT_SECRET", "IdP client secret")
	var ue *clierr.UsageError
	if !errors.As(err, &ue) || !strings.Contains(err.Error(), "MCPDECK_IDP_CLIENT_SECRET") {
		t.Fatalf("an empty pipe should be a usage error naming the variable, got %v", err)
	}
	t.Setenv("MCPDECK_IDP_CLIENT_SECRET", "from-env")
	if got, err := ReadSecret(g, "MCPDECK_IDP_CLIENT_SECRET", "IdP client secret"); err != nil || got != "from-env" {
		t.Fatalf("the environment should win: %q, %v", got, err)
	}
}

// TestStorableSecretsFollowTheFlags checks each flag asks for its own
// credential, in a fixed order, and nothing else.
func TestStorableSecretsFollowTheFlags(t *testing.T) {
	m := oauth.New(oauth.Options{ConfigDir: t.TempDir()})
	var names []string
	for _, c := range storableSecrets(m, true, false, true, true) {
		names = append(names, c.env)
	}
	if got := strings.Join(names, " "); got != "MCPDECK_CLIENT_SECRET MCPDECK_IDP_ID_TOKEN MCPDECK_IDP_CLIENT_SECRET" {
		t.Fatalf("got %s", got)
	}
	if len(storableSecrets(m, false, false, false, false)) != 0 {
		t.Fatal("no flag, no secret")
	}
}
