package egress

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/netip"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
)

// maxRefusedHost bounds the host a Refusal carries when it did not parse.
const maxRefusedHost = 255

// dial decides on hostname and port as the client named them, resolves an
// allowed name itself, and connects to the first allowed address that
// answers. A refusal is reported to OnRefuse and returned as an error
// that Is ErrRefused; no DNS query is made for a refused name.
func (p *Proxy) dial(ctx context.Context, hostname string, port int) (net.Conn, error) {
	h, err := hostlist.ParseHost(hostname)
	if err != nil {
		if len(hostname) > maxRefusedHost {
			hostname = hostname[:maxRefusedHost]
		}
		hostname = strings.ToValidUTF8(hostname, "\uFFFD")
		return nil, p.refuse(Refusal{Host: hostname, Port: port, Reason: reasonBadHost})
	}
	if port < 1 || port > 65535 {
		return nil, p.refuse(Refusal{Host: h.String(), Port: port, Reason: reasonBadPort})
	}
	kind := p.rule.match(h, port)
	if kind == matchNone {
		r := Refusal{Host: h.String(), Port: port, Reason: reasonNotListed, Allow: hostlist.NewEntry(h, port).String()}
		if h.IP().IsValid() {
			r.Reason = reasonIPNotListed
		}
		return nil, p.refuse(r)
	}
	addrs, err := p.resolve(ctx, h)
	if err != nil {
		return nil, fmt.Errorf("look up %s: %w", h, err)
	}
	var allowed []netip.Addr
	for _, a := range addrs {
		if a = a.Unmap(); p.rule.allowsAddr(kind, a, port) {
			allowed = append(allowed, a)
		}
	}
	if len(allowed) == 0 {
		if len(addrs) > 0 {
			ip := addrs[0].Unmap()
			return nil, p.refuse(Refusal{Host: h.String(), Port: port, Reason: reasonAddr(ip), Allow: hostlist.NewEntry(hostlist.AddrHost(ip), port).String()})
		}
		return nil, fmt.Errorf("look up %s: %w", h, errNoAddress)
	}
	return p.connect(ctx, allowed, port)
}

// errNoAddress is a lookup that answered without an address.
var errNoAddress = errors.New("no address found")

// resolve returns h's addresses: an IP literal as it is, "localhost" as
// the loopback addresses without asking DNS, a name through
// Options.Resolve or the system resolver.
func (p *Proxy) resolve(ctx context.Context, h hostlist.Host) ([]netip.Addr, error) {
	switch {
	case h.IP().IsValid():
		return []netip.Addr{h.IP()}, nil
	case h.Name() == "localhost":
		return []netip.Addr{netip.AddrFrom4([4]byte{127, 0, 0, 1}), netip.IPv6Loopback()}, nil
	case p.opts.Resolve != nil:
		return p.opts.Resolve(ctx, h.Name())
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", h.Name())
}

// connect dials the addresses in turn and tracks the connection it gets,
// so Close cuts it.
func (p *Proxy) connect(ctx context.Context, addrs []netip.Addr, port int) (net.Conn, error) {
	var d net.Dialer
	var errs []error
	for _, a := range addrs {
		c, err := d.DialContext(ctx, "tcp", netip.AddrPortFrom(a, uint16(port)).String())
		if err == nil {
			if !p.conns.add(c) {
				return nil, ErrClosed
			}
			return c, nil
		}
		errs = append(errs, err)
		if ctx.Err() != nil {
			break
		}
	}
	return nil, errors.Join(errs...)
}

// refuse stamps a refusal, reports it and returns it as an error.
func (p *Proxy) refuse(r Refusal) error {
	r.At = time.Now()
	if p.opts.OnRefuse != nil {
		p.opts.OnRefuse(r)
	}
	return &refusedError{r: r}
}
