package e2e

import (
	"bufio"
	"fmt"
	"os"
	"strings"
	"testing"
)

// loopbackAddrs are the local addresses of /proc/net/tcp{,6} that stay on
// the machine: 127.0.0.1, ::1, and 127.0.0.1 as an IPv4-mapped address.
var loopbackAddrs = map[string]bool{
	"0100007F":                         true,
	"00000000000000000000000001000000": true,
	"0000000000000000FFFF00000100007F": true,
}

// loopbackOnly fails the test when a listener on port is bound to an
// address beyond the machine: a test never listens there.
func loopbackOnly(t *testing.T, port int) {
	t.Helper()
	want := fmt.Sprintf(":%04X", port)
	for _, file := range []string{"/proc/net/tcp", "/proc/net/tcp6"} {
		f, err := os.Open(file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			fields := strings.Fields(sc.Text())
			if len(fields) < 4 || fields[3] != "0A" || !strings.HasSuffix(fields[1], want) {
				continue
			}
			if addr := strings.TrimSuffix(fields[1], want); !loopbackAddrs[addr] {
				t.Errorf("port %d listens on %s (%s), beyond the machine", port, addr, file)
			}
		}
		_ = f.Close()
	}
}
