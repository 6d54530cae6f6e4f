package oauth

import (
	"bytes"
	"context"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/launch"
	"github.com/mcpdeck/mcpdeck/model/platform"
)

// runShell runs a configured command line (headersHelper,
// oauth.assertionCommand) through the one shell runner (launch.RunShell:
// judged by managed policy as the shell it is, in its own process group)
// with MCPDECK_SERVER_NAME and MCPDECK_SERVER_URL, in the directory of the
// config file that defined the server (Server.DefinitionDir), under the
// helper timeout, and returns its trimmed output. Errors never quote the
// output: it holds credentials. Every helper oauth runs starts here.
func runShell(ctx context.Context, srv model.Server, line string, timeout time.Duration) ([]byte, error) {
	env := map[string]string{"MCPDECK_SERVER_NAME": srv.Name, "MCPDECK_SERVER_URL": srv.Config.URL}
	out, err := launch.For(srv).RunShell(ctx, line, env, srv.DefinitionDir(), nil,
		platform.Limits{Timeout: timeout, MaxOutput: maxHelperOutput})
	if err != nil {
		return nil, err
	}
	return bytes.TrimSpace(out), nil
}
