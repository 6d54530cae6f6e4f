package launch

import (
	"context"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// Run runs s to its end under lim, with stdin (nil for none), and returns
// its stdout: in its own process group, which ends as a whole at the
// timeout, at too much output and when the program exits (platform.Run).
// A server's helper (headersHelper, oauth.assertionCommand) that managed
// policy requires to be sandboxed (sandboxedMcpServers) runs in the
// server's sandbox, or the default profile when the server has none,
// within the rule's maximum — or not at all. Errors never quote stdout.
func (l Launcher) Run(ctx context.Context, s Spec, stdin []byte, lim platform.Limits) ([]byte, error) {
	cmd, prog, err := l.resolve(s)
	if err != nil {
		return nil, err
	}
	if _, required := l.Policy.RequiresSandbox(l.Server, prog); required && l.Server != "" && !l.persons {
		return l.runSandboxed(ctx, s, stdin, lim)
	}
	if l.starting != nil {
		l.starting(cmd)
	}
	return platform.Run(ctx, cmd, stdin, lim)
}

// RunShell runs a configured command line through the shell
// (platform.Shell: /bin/sh -c LINE, or cmd.exe /C LINE on Windows), as Run
// does. Policy judges what actually runs: the shell, with "-c" and the
// line as its arguments, so a deny of ["/bin/sh", "*"] or ["*"] stops every
// command line, and an allow rule must name the shell and the line
// (["/bin/sh", "-c", "/opt/corp/token *"]).
func (l Launcher) RunShell(ctx context.Context, line string, env map[string]string, dir string, stdin []byte, lim platform.Limits) ([]byte, error) {
	shell, args := platform.Shell(line)
	return l.Run(ctx, Spec{Command: shell, Args: args, Env: env, Dir: dir}, stdin, lim)
}
