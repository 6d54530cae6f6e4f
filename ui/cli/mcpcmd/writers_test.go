package mcpcmd

import (
	"context"
	"fmt"
	"path/filepath"
	"sync"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/clitest"
	"github.com/mcpdeck/mcpdeck/transports"
)

// TestManyAddsAtOnce: eight `mcpdeck mcp add` processes run at once, six
// times over, on the same file: the file lock and the read inside it keep
// all 48 servers.
func TestManyAddsAtOnce(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	const writers, each = 8, 6
	var wg sync.WaitGroup
	failures := make(chan string, writers*each)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if r := e.Run("mcp", "add", fmt.Sprintf("w%d-%d", w, i), "--", "srv"); r.Code != 0 {
					failures <- r.String()
				}
			}
		})
	}
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	servers, doc := e.List()
	if len(doc.Problems) > 0 {
		t.Errorf("problems: %+v", doc.Problems)
	}
	for w := range writers {
		for i := range each {
			if _, ok := servers[fmt.Sprintf("w%d-%d", w, i)]; !ok {
				t.Errorf("w%d-%d lost", w, i)
			}
		}
	}
}

// TestTUIAndAddsEditTheSameFile: while `mcp add` processes add servers to
// the local settings, the engine (what the TUI's d key and approvals use)
// disables and enables a server in the same file again and again:
// nothing either wrote is lost, and the server ends as last set.
func TestTUIAndAddsEditTheSameFile(t *testing.T) {
	t.Parallel()
	e := clitest.NewEnv(t)
	e.OK("mcp", "add", "keep", "--", "srv")
	eng, err := engine.New(engine.Options{
		Load: e.LoadOptions(), Factory: transports.NewFactory(), CacheDir: filepath.Join(e.Home, ".cache", "mcpdeck"),
	})
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = eng.Close() }()
	ctx := context.Background()
	if err := eng.Reload(ctx); err != nil {
		t.Fatal(err)
	}
	const writers, each, toggles = 3, 8, 40
	var wg sync.WaitGroup
	failures := make(chan string, writers*each+toggles)
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				if r := e.Run("mcp", "add", fmt.Sprintf("w%d-%d", w, i), "--", "srv"); r.Code != 0 {
					failures <- r.String()
				}
			}
		})
	}
	wg.Go(func() {
		for i := range toggles {
			toggle := eng.Disable
			if i%2 == 1 {
				toggle = eng.Enable
			}
			if err := toggle(ctx, "keep"); err != nil {
				failures <- fmt.Sprintf("toggle %d: %v", i, err)
			}
		}
	})
	wg.Wait()
	close(failures)
	for f := range failures {
		t.Error(f)
	}
	servers, doc := e.List()
	if len(doc.Problems) > 0 {
		t.Errorf("problems: %+v", doc.Problems)
	}
	for w := range writers {
		for i := range each {
			if _, ok := servers[fmt.Sprintf("w%d-%d", w, i)]; !ok {
				t.Errorf("w%d-%d lost", w, i)
			}
		}
	}
	if s, ok := servers["keep"]; !ok || !s.Enabled {
		t.Errorf("keep = %+v (present %v), want it enabled: the last toggle enabled it", s, ok)
	}
	for _, s := range eng.Snapshot().Servers {
		if s.Name == "keep" && (!s.Enabled || s.Scope != model.ScopeLocal) {
			t.Errorf("the engine's keep: enabled %v, scope %v", s.Enabled, s.Scope)
		}
	}
}
