package transports

import (
	"context"
	"fmt"
	"net"
	"os"
	"strconv"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/transports/egress"
)

// Refusal is a connection a sandboxed server tried and its sandbox's
// proxy refused: the host as the server named it (sanitized), the port,
// when, why in words, and Allow, the network list entry that would let it
// through ("" when none would). It comes from the proxy, never from the
// server's output, so a key that acts on it acts on what was refused.
type Refusal struct {
	Host   string    `json:"host"`
	Port   int       `json:"port"`
	At     time.Time `json:"at"`
	Reason string    `json:"reason"`
	Allow  string    `json:"allow,omitempty"`
}

// sandboxProxy starts the proxy of a sandbox whose network is a host
// list, its unix socket in a private directory of its own; each refusal
// goes to the server's log (note) and to onRefuse. stop ends the proxy
// and removes the directory; with no host list there is nothing to start
// (nil Net, a stop that does nothing).
func sandboxProxy(box *model.Sandbox, note func(string), onRefuse func(Refusal)) (*sandbox.Net, func(), error) {
	if box == nil || len(box.Network.Hosts) == 0 {
		return nil, func() {}, nil
	}
	dir, err := os.MkdirTemp("", "mcpdeck-egress-")
	if err != nil {
		return nil, nil, fmt.Errorf("sandbox proxy: %w", err)
	}
	p, err := egress.Start(context.Background(), egress.Options{
		Rule:      egress.Rule{Hosts: box.Network.Hosts},
		SocketDir: dir,
		OnRefuse: func(r egress.Refusal) {
			ref := Refusal{Host: textsafe.SanitizeLine(r.Host), Port: r.Port, At: r.At, Reason: r.Reason, Allow: textsafe.SanitizeLine(r.Allow)}
			note(model.SandboxBlockedNote(net.JoinHostPort(ref.Host, strconv.Itoa(ref.Port)), r.At, r.Reason))
			if onRefuse != nil {
				onRefuse(ref)
			}
		},
	})
	if err != nil {
		_ = os.RemoveAll(dir)
		return nil, nil, fmt.Errorf("sandbox proxy: %w", err)
	}
	control, stopBroker, err := egress.StartBroker(p.SocketPath())
	if err != nil {
		_ = p.Close()
		_ = os.RemoveAll(dir)
		return nil, nil, fmt.Errorf("sandbox proxy: %w", err)
	}
	stop := func() {
		stopBroker()
		_ = control.Close() // when the sandbox never started
		_ = p.Close()
		_ = os.RemoveAll(dir)
	}
	n := &sandbox.Net{
		Control: control,
		Addr:    p.Addr(),
		ShimArgs: func(controlFD int, argv []string) []string {
			return append([]string{egress.ShimArg, "--control-fd", strconv.Itoa(controlFD), "--"}, argv...)
		},
		ShimEnv: []string{egress.CredentialEnv + "=" + p.Credential().String()},
		Env: func(env []string, addr string) []string {
			return egress.Env(env, p.Credential().ProxyURL(addr))
		},
	}
	return n, stop, nil
}
