package egress

import (
	"errors"
	"fmt"
	"net/netip"
	"strconv"
)

// ShimArg is the first argument that makes mcpdeck run as the shim inside
// a sandbox's network namespace:
//
//	mcpdeck __mcpdeck-sandbox-shim --control-fd N [--listen 127.0.0.1:0] -- PROGRAM ARGS...
//	mcpdeck __mcpdeck-sandbox-shim --socket PATH [--listen 127.0.0.1:0] -- PROGRAM ARGS...
//
// With --control-fd it gets each connection to the proxy from mcpdeck's
// broker (StartBroker) over that inherited descriptor, and so needs no
// unix socket of its own; with --socket it connects to the proxy's
// socket itself.
const ShimArg = "__mcpdeck-sandbox-shim"

// The shim's exit codes of its own (otherwise it returns the program's).
const (
	shimUsage      = 2   // the arguments are wrong
	shimSetup      = 125 // the listener or the socket failed
	shimCannotExec = 126 // the program exists but did not start
	shimNotFound   = 127 // the program is not there
)

// errShimUsage is an argument list the shim does not understand.
var errShimUsage = errors.New("usage: mcpdeck " + ShimArg + " --control-fd N | --socket PATH [--listen 127.0.0.1:0] -- PROGRAM [ARGS]")

// shimConfig is the shim's parsed command line.
type shimConfig struct {
	socket string
	// control is the inherited descriptor of the broker's control
	// socket, 0 for none (then socket).
	control int
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
		case (a == "--socket" || a == "--listen" || a == "--control-fd") && len(args) > 1:
			if err := cfg.set(a, args[1]); err != nil {
				return shimConfig{}, err
			}
			args = args[2:]
		default:
			return shimConfig{}, fmt.Errorf("%w (unexpected %q)", errShimUsage, a)
		}
	}
	if (cfg.socket == "") == (cfg.control == 0) || len(cfg.argv) == 0 || cfg.argv[0] == "" {
		return shimConfig{}, errShimUsage
	}
	return cfg, nil
}

func (cfg *shimConfig) set(flag, value string) error {
	switch flag {
	case "--socket":
		cfg.socket = value
		return nil
	case "--control-fd":
		fd, err := strconv.Atoi(value)
		if err != nil || fd < 3 {
			return fmt.Errorf("%w (--control-fd takes an inherited descriptor, 3 or more, not %q)", errShimUsage, value)
		}
		cfg.control = fd
		return nil
	}
	ap, err := netip.ParseAddrPort(value)
	if err != nil || !ap.Addr().IsLoopback() {
		return fmt.Errorf("%w (--listen takes a loopback address and port, not %q)", errShimUsage, value)
	}
	cfg.listen = ap
	return nil
}

// RunHelper runs mcpdeck's executable as a sandbox's helper, the network
// shim, when args (os.Args[1:]) start with ShimArg; ok is false for any
// other command line. mcpdeck's main and every test binary that stands
// in for it call this one function, so they are the same helper.
func RunHelper(args []string) (code int, ok bool) {
	if len(args) == 0 {
		return 0, false
	}
	if args[0] == ShimArg {
		return RunShim(args), true
	}
	return 0, false
}
