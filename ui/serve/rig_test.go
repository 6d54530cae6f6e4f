package serve

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/transports"
)

// waitLimit bounds every wait of these tests (real processes under -race
// on a shared machine); reaching it fails the test.
const waitLimit = 60 * time.Second

// rig is a gateway over a real engine whose servers are faultserver
// processes, in a private home and config directory.
type rig struct {
	t    testing.TB
	gw   *Gateway
	log  *lockedBuffer
	load config.LoadOptions
}

// lockedBuffer is the person's log, written by the gateway's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// fault is a faultserver definition with extra flags and environment.
func fault(args []string, env map[string]string) map[string]any {
	d := map[string]any{"command": faultBin}
	if len(args) > 0 {
		d["args"] = args
	}
	if len(env) > 0 {
		d["env"] = env
	}
	return d
}

// newRig starts a gateway on servers (name → definition), given as
// --mcp-config would give them. edit may change the engine options. The
// tests written before --prefix name tools SERVER__NAME: an unset Prefix
// is always here (the command's default is auto).
func newRig(t testing.TB, servers map[string]any, o Options, edit func(*engine.Options)) *rig {
	t.Helper()
	if o.Prefix == "" {
		o.Prefix = PrefixAlways
	}
	r, err := startRig(t, servers, o, edit)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// startRig is newRig with o as given, returning New's error.
func startRig(t testing.TB, servers map[string]any, o Options, edit func(*engine.Options)) (*rig, error) {
	t.Helper()
	dir := t.TempDir()
	cfg, err := json.Marshal(map[string]any{"mcpServers": servers})
	if err != nil {
		t.Fatal(err)
	}
	load := config.LoadOptions{
		Cwd: filepath.Join(dir, "proj"), Home: dir, ConfigDir: filepath.Join(dir, "config", "mcpdeck"),
		ManagedDir: filepath.Join(dir, "managed"), Dynamic: []string{string(cfg)},
		LookupEnv: func(k string) (string, bool) {
			if k == "PATH" {
				return os.LookupEnv(k)
			}
			return "", false
		},
	}
	for _, d := range []string{load.Cwd, load.ConfigDir, load.ManagedDir} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	eo := engine.Options{Load: load, Factory: transports.NewFactory(), CacheDir: filepath.Join(dir, "cache")}
	if edit != nil {
		edit(&eo)
	}
	r := &rig{t: t, log: &lockedBuffer{}, load: load}
	if o.StartupWait == 0 {
		// The first listing and call wait for every server, however slow
		// the shared machine: these tests are about what is offered, not
		// when (the wait's timing is TestFirstListWaitsForTheUnknown's).
		o.StartupWait = waitLimit
	}
	o.Log = r.log
	gw, err := New(t.Context(), eo, o)
	if err != nil {
		return nil, err
	}
	r.gw = gw
	t.Cleanup(func() {
		if err := gw.Close(); err != nil {
			t.Logf("closing the gateway: %v", err)
		}
	})
	return r, nil
}

// waitFor waits until cond holds for the gateway (checked under its lock
// after every change), failing the test after waitLimit.
func (r *rig) waitFor(what string, cond func(g *Gateway) bool) {
	r.t.Helper()
	deadline := time.NewTimer(waitLimit)
	defer deadline.Stop()
	for {
		r.gw.mu.Lock()
		ok, ch := cond(r.gw), r.gw.changed
		r.gw.mu.Unlock()
		if ok {
			return
		}
		select {
		case <-ch:
		case <-deadline.C:
			r.t.Fatalf("gave up waiting for %s; log:\n%s", what, r.log)
		}
	}
}

// state is the named server's state in the last snapshot applied (under
// the gateway's lock, inside waitFor).
func state(g *Gateway, name string) model.State {
	for _, s := range g.snap.Servers {
		if s.Name == name {
			return s.State
		}
	}
	return model.StateDisabled
}

// snapOf is a snapshot listing servers by name only, each one that may run.
func snapOf(names ...string) engine.Snapshot {
	var s engine.Snapshot
	for _, n := range names {
		s.Servers = append(s.Servers, engine.ServerSnapshot{Name: n, Runnable: true})
	}
	return s
}
