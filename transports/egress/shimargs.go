package egress

import (
	"errors"
	"fmt"
	"net/netip"

	"github.com/mcpdeck/mcpdeck/model/sandbox"
)

// ShimArg is the first argument that makes mcpdeck run as the shim inside
// a sandbox's network namespace:
//
//	mcpdeck __mcpdeck-sandbox-shim --socket PATH [--listen 127.0.0.1:0] -- PROGRAM ARGS...
const ShimArg = "__mcpdeck-sandbox-shim"

// The shim's exit codes of its own (otherwise it returns the program's).
const (
	shimUsage      = 2   // the arguments are wrong
	shimSetup      = 125 // the listener or the socket failed
	shimCannotExec = 126 // the program exists but did not start
	shimNotFound   = 127 // the program is not there
)

// errShimUsage is an argument list the shim does not understand.
var errShimUsage = errors.New("usage: mcpdeck " + ShimArg + " --socket PATH [--listen 127.0.0.1:0] -- PROGRAM [ARGS]")

// shimConfig is the shim's parsed command line.
type shimConfig struct {
	socket string
	// credential is the proxy's, from CredentialEnv (RunShim).
	credential Credential
	listen     netip.AddrPort
	argv       []string
}

// parseShimArgs reads the words after ShimArg (a leading ShimArg is
// skipped too, so os.Args[1:] works as well as os.Args[2:]).
func parseShimArgs(args []string) (shimConfig, error) {
	if len(args) > 0 && args[0] == ShimArg {
		args = args[1:]
	}
	cfg := shimConfig{listen: netip.AddrPortFrom(netip.AddrFrom4([4]byte{127, 0, 0, 1}), 0)}
	for len(args) > 0 {
		switch a := args[0]; {
		case a == "--":
			cfg.argv = args[1:]
			args = nil
		case (a == "--socket" || a == "--listen") && len(args) > 1:
			if err := cfg.set(a, args[1]); err != nil {
				return shimConfig{}, err
			}
			args = args[2:]
		default:
			return shimConfig{}, fmt.Errorf("%w (unexpected %q)", errShimUsage, a)
		}
	}
	if cfg.socket == "" || len(cfg.argv) == 0 || cfg.argv[0] == "" {
		return shimConfig{}, errShimUsage
	}
	return cfg, nil
}

func (cfg *shimConfig) set(flag, value string) error {
	if flag == "--socket" {
		cfg.socket = value
		return nil
	}
	ap, err := netip.ParseAddrPort(value)
	if err != nil || !ap.Addr().IsLoopback() {
		return fmt.Errorf("%w (--listen takes a loopback address and port, not %q)", errShimUsage, value)
	}
	cfg.listen = ap
	return nil
}

// RunHelper runs mcpdeck's executable as one of a sandbox's helpers when
// args (os.Args[1:]) start with one's name: the network shim (ShimArg) or
// the socket filter's loader (sandbox.FilterExecArg), which the shim runs
// the server through. ok is false for any other command line. mcpdeck's
// main and every test binary that stands in for it call this one
// function, so they are the same helpers.
func RunHelper(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	switch args[0] {
	case ShimArg:
		return RunShim(args), true
	case sandbox.FilterExecArg:
		return sandbox.RunFiltered(args), true
	}
	return 0, false
}
