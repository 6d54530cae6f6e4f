package transports

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/netip"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// procLine is a /proc/net/tcp line for an IPv4 socket on this machine.
func procLine(local, remote netip.AddrPort, state, uid int) string {
	hexAddr := func(ap netip.AddrPort) string {
		b := ap.Addr().As4()
		return fmt.Sprintf("%08X:%04X", uint32(b[0])|uint32(b[1])<<8|uint32(b[2])<<16|uint32(b[3])<<24, ap.Port())
	}
	return fmt.Sprintf("   0: %s %s %02X 00000000:00000000 00:00000000 00000000 %5d        0 1 1 0 100 0 0 10 0", hexAddr(local), hexAddr(remote), state, uid)
}

const procHeader = "  sl  local_address rem_address   st tx_queue rx_queue tr tm->when retrnsmt   uid  timeout inode\n"

func TestSocketOwner(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("procLine writes little-endian words")
	}
	srv, cli := netip.MustParseAddrPort("127.0.0.1:8123"), netip.MustParseAddrPort("127.0.0.1:50000")
	any4 := netip.MustParseAddrPort("0.0.0.0:8123")
	zero := netip.MustParseAddrPort("0.0.0.0:0")
	tcp6 := procHeader + // a dual-stack listener of uid 7 ([::]:8123) and the connection it accepted, v4-mapped
		"   0: 00000000000000000000000000000000:1FBB 00000000000000000000000000000000:0000 0A 00000000:00000000 00:00000000 00000000     7        0 1\n" +
		"   1: 0000000000000000FFFF00000100007F:1FBB 0000000000000000FFFF00000100007F:C350 01 00000000:00000000 00:00000000 00000000     7        0 2\n"
	for _, tc := range []struct {
		name   string
		tables []string
		uid    int
		ok     bool
	}{
		{"the connection's own entry", []string{procHeader + procLine(srv, zero, tcpListen, 1000) + "\n" + procLine(srv, cli, 1, 1001)}, 1001, true},
		{"the listener on the address", []string{procHeader + procLine(srv, zero, tcpListen, 1000)}, 1000, true},
		{"the listener on any address", []string{procHeader + procLine(any4, zero, tcpListen, 1002)}, 1002, true},
		{"two owners", []string{procHeader + procLine(srv, zero, tcpListen, 1000) + "\n" + procLine(any4, zero, tcpListen, 1003)}, 0, false},
		{"nobody", []string{procHeader}, 0, false},
		{"IPv6, v4-mapped", []string{procHeader, tcp6}, 7, true},
	} {
		tables := make([][]byte, len(tc.tables))
		for i, s := range tc.tables {
			tables[i] = []byte(s)
		}
		if uid, ok := socketOwner(tables, srv, cli); uid != tc.uid || ok != tc.ok {
			t.Errorf("%s: %d %v, want %d %v", tc.name, uid, ok, tc.uid, tc.ok)
		}
	}
}

// TestEditorPortOfAnotherUserGetsNoToken: when the socket tables say
// another user's process holds the lock file's port, neither editor
// transport sends a byte (the token least of all) and the error says
// why; when they say it is ours, the handshake goes ahead.
func TestEditorPortOfAnotherUserGetsNoToken(t *testing.T) {
	if runtime.GOARCH != "amd64" && runtime.GOARCH != "arm64" {
		t.Skip("procLine writes little-endian words")
	}
	if !ownerKnown {
		t.Skip("this system does not say who owns a socket (SECURITY.md)")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	got := make(chan int, 4)
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			n, _ := io.Copy(io.Discard, c)
			got <- int(n)
		}
	}()
	port := ln.Addr().(*net.TCPAddr).Port
	fake := func(uid int) socketTables {
		return func(name string) ([]byte, error) {
			if name != "/proc/net/tcp" {
				return nil, os.ErrNotExist
			}
			return []byte(procHeader + procLine(netip.MustParseAddrPort("127.0.0.1:"+strconv.Itoa(port)), netip.MustParseAddrPort("0.0.0.0:0"), tcpListen, uid)), nil
		}
	}
	const token = "editor-token-0123456789"
	for _, cfg := range []model.ServerConfig{wsIDE(port, token), {Type: model.TransportSSEIDE, URL: "http://127.0.0.1:" + strconv.Itoa(port) + "/sse"}} {
		_, err := NewFactory().Open(t.Context(), "ide", cfg, Options{socketTables: fake(os.Getuid() + 4242)})
		if !errors.Is(err, ErrEditorNotYours) || strings.Contains(err.Error(), token) {
			t.Errorf("%s: %v, want ErrEditorNotYours", cfg.Type, err)
		}
		if n := <-got; n != 0 {
			t.Errorf("%s: the other user's process received %d bytes", cfg.Type, n)
		}
	}
	// Ours: the request goes out (this listener is no editor and never
	// answers, so the handshake then times out, but not for its owner).
	_, err = NewFactory().Open(t.Context(), "ide", wsIDE(port, token), Options{socketTables: fake(os.Getuid()), RequestTimeout: 300 * time.Millisecond})
	if err == nil || errors.Is(err, ErrEditorNotYours) {
		t.Errorf("our own port: %v", err)
	}
	if n := <-got; n == 0 {
		t.Error("our own editor's port received nothing")
	}
}

// FuzzParseProcNet: any socket table reads without a panic, and every
// entry it finds has a port-bearing address pair.
func FuzzParseProcNet(f *testing.F) {
	f.Add([]byte(procHeader + "   0: 0100007F:1F90 00000000:0000 0A 00000000:00000000 00:00000000 00000000  1000        0 1\n"))
	f.Add([]byte("   1: 0000000000000000FFFF00000100007F:1FBB 0000000000000000FFFF00000100007F:C350 01 0:0 0:0 0 7 0 2\n"))
	f.Add([]byte("0: zz:zz 0:0 0A 0 0 0 x"))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, e := range parseProcNet(data) {
			if !e.local.IsValid() || !e.remote.IsValid() {
				t.Fatalf("entry %+v", e)
			}
		}
	})
}
