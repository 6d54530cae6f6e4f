package mcpcmd

import (
	"fmt"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// TestConcurrentWriters runs two writers at once, each a sequence of 50
// `mcpdeck mcp add` processes on the same local settings file: the file lock
// and atomic rename must keep all 100 servers.
func TestConcurrentWriters(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	const perWriter = 50
	var wg sync.WaitGroup
	failures := make(chan string, 2*perWriter)
	for _, prefix := range []string{"a", "b"} {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range perWriter {
				if r := e.Run("mcp", "add", fmt.Sprintf("%s-%02d", prefix, i), "--", "srv", prefix); r.Code != 0 {
					failures <- r.String()
				}
			}
		}()
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	servers, _ := e.List()
	if len(servers) != 2*perWriter {
		t.Fatalf("%d servers present, want %d", len(servers), 2*perWriter)
	}
	for _, p := range []string{"a", "b"} {
		for i := range perWriter {
			if _, ok := servers[fmt.Sprintf("%s-%02d", p, i)]; !ok {
				t.Errorf("%s-%02d lost", p, i)
			}
		}
	}
}
