//go:build unix

package egress

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"os/signal"
	"syscall"
)

// RunShim runs the shim (see ShimArg) and returns the exit code for
// os.Exit: the program's own, 128+N when signal N ended it, or 2, 125,
// 126, 127 when the arguments, the relay or the program's start failed,
// with a sentence on stderr. It writes nothing to stdout: the program's
// stdout, an MCP stdio stream, goes through untouched.
func RunShim(args []string) int {
	cfg, err := parseShimArgs(args)
	if err != nil {
		shimSay(os.Stderr, err)
		return shimUsage
	}
	cred, ok := ParseCredential(os.Getenv(CredentialEnv))
	if !ok {
		shimSay(os.Stderr, errors.New(CredentialEnv+" does not hold the proxy's credential"))
		return shimSetup
	}
	_ = os.Unsetenv(CredentialEnv) // the server sees it only in its proxy URL
	cfg.credential = cred
	untraceable()
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	return runShim(context.Background(), cfg, shimIO{in: os.Stdin, out: os.Stdout, err: os.Stderr}, sigs)
}

// shimIO is the program's standard streams, inherited as they are.
type shimIO struct {
	in       io.Reader
	out, err io.Writer
}

// runShim listens, relays, runs the program with the proxy variables set,
// passes on the signals that arrive on sigs, and cleans up when the
// program exits.
func runShim(ctx context.Context, cfg shimConfig, stdio shimIO, sigs <-chan os.Signal) int {
	dial, err := shimDial(cfg)
	if err != nil {
		shimSay(stdio.err, err)
		return shimSetup
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", cfg.listen.String())
	if err != nil {
		shimSay(stdio.err, fmt.Errorf("cannot listen on the sandbox's loopback: %w", err))
		return shimSetup
	}
	r := startRelay(ctx, ln, dial)
	defer r.close()
	cmd := exec.CommandContext(ctx, cfg.argv[0], cfg.argv[1:]...)
	cmd.Env = Env(os.Environ(), cfg.credential.ProxyURL(ln.Addr().String()))
	cmd.Stdin, cmd.Stdout, cmd.Stderr = stdio.in, stdio.out, stdio.err
	if err := cmd.Start(); err != nil {
		shimSay(stdio.err, fmt.Errorf("cannot start %s: %w", cfg.argv[0], err))
		if errors.Is(err, exec.ErrNotFound) || errors.Is(err, os.ErrNotExist) {
			return shimNotFound
		}
		return shimCannotExec
	}
	exited := make(chan struct{})
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			select {
			case s := <-sigs:
				_ = cmd.Process.Signal(s)
			case <-exited:
				return
			}
		}
	}()
	err = cmd.Wait()
	close(exited)
	<-done
	return exitCode(cmd, err)
}

// shimDial is how the shim reaches the proxy: through the broker on the
// control descriptor (which it takes, closed on exec, so the server does
// not inherit it), or by connecting to the proxy's socket.
func shimDial(cfg shimConfig) (func(ctx context.Context) (net.Conn, error), error) {
	if cfg.control != 0 {
		d, err := openControl(cfg.control)
		if err != nil {
			return nil, fmt.Errorf("cannot reach the egress broker: %w", err)
		}
		return func(context.Context) (net.Conn, error) { return d.dial() }, nil
	}
	if _, err := os.Stat(cfg.socket); err != nil {
		return nil, fmt.Errorf("cannot reach the egress proxy's socket: %w", err)
	}
	return func(ctx context.Context) (net.Conn, error) {
		var d net.Dialer
		return d.DialContext(ctx, "unix", cfg.socket)
	}, nil
}

// exitCode is the program's exit status as a shell reports it.
func exitCode(cmd *exec.Cmd, err error) int {
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	if code := cmd.ProcessState.ExitCode(); code >= 0 {
		return code
	}
	if err != nil {
		return shimCannotExec
	}
	return 0
}

// shimSay writes one diagnostic line to stderr.
func shimSay(w io.Writer, err error) {
	_, _ = fmt.Fprintf(w, "mcpdeck sandbox shim: %v\n", err)
}
