package transports

import (
	"bufio"
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"net/netip"
	"strconv"
	"strings"
)

// tcpListen is /proc/net/tcp's state of a listening socket.
const tcpListen = 0x0A

// tcpEntry is one socket of /proc/net/tcp or /proc/net/tcp6: its local
// and remote addresses, its state and the uid that owns it.
type tcpEntry struct {
	local, remote netip.AddrPort
	state         int
	uid           int
}

// parseProcNet reads the socket table of /proc/net/tcp{,6}: a header
// line, then one socket a line, addresses as the kernel prints them (the
// address's 32-bit words in the machine's order, in hex, then the port
// in hex). Lines it cannot read are skipped.
func parseProcNet(data []byte) []tcpEntry {
	var out []tcpEntry
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) < 8 || !strings.HasSuffix(f[0], ":") {
			continue
		}
		local, ok1 := parseProcAddr(f[1])
		remote, ok2 := parseProcAddr(f[2])
		state, err1 := strconv.ParseInt(f[3], 16, 32)
		uid, err2 := strconv.Atoi(f[7])
		if !ok1 || !ok2 || err1 != nil || err2 != nil {
			continue
		}
		out = append(out, tcpEntry{local: local, remote: remote, state: int(state), uid: uid})
	}
	return out
}

// parseProcAddr reads "0100007F:1F90" or its 32-digit IPv6 form.
func parseProcAddr(s string) (netip.AddrPort, bool) {
	h, p, ok := strings.Cut(s, ":")
	port, err := strconv.ParseUint(p, 16, 16)
	if !ok || err != nil || (len(h) != 8 && len(h) != 32) {
		return netip.AddrPort{}, false
	}
	raw, err := hex.DecodeString(h)
	if err != nil {
		return netip.AddrPort{}, false
	}
	b := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); i += 4 {
		b = binary.NativeEndian.AppendUint32(b, binary.BigEndian.Uint32(raw[i:i+4]))
	}
	addr, _ := netip.AddrFromSlice(b)
	return netip.AddrPortFrom(addr.Unmap(), uint16(port)), true
}

// socketOwner is the uid that owns the socket at server which accepted
// the connection from client, as the socket tables say: the connection's
// own entry (which carries its listener's owner), else the listeners on
// server's port that could have accepted it (its address, or any) when
// they all have one owner. ok is false when the tables do not tell.
func socketOwner(tables [][]byte, server, client netip.AddrPort) (uid int, ok bool) {
	server = netip.AddrPortFrom(server.Addr().Unmap(), server.Port())
	client = netip.AddrPortFrom(client.Addr().Unmap(), client.Port())
	var listeners []int
	for _, t := range tables {
		for _, e := range parseProcNet(t) {
			switch {
			case e.local == server && e.remote == client:
				return e.uid, true
			case e.state == tcpListen && e.local.Port() == server.Port() &&
				(e.local.Addr() == server.Addr() || e.local.Addr().IsUnspecified()):
				listeners = append(listeners, e.uid)
			}
		}
	}
	for _, u := range listeners {
		if u != listeners[0] {
			return 0, false
		}
	}
	if len(listeners) == 0 {
		return 0, false
	}
	return listeners[0], true
}
