package engine

import (
	"context"
	"path/filepath"
	"testing"
)

// BenchmarkConnectOldStdio starts an engine with one stdio server that speaks
// protocol 2025-06-18 and ignores server/discover (the worst kind of old
// server: without the remembered version every start would wait out the
// discovery probe), waits until it is connected and closes the engine. The
// cache directory is shared by every iteration, as it is between runs of
// mcpdeck; one untimed start before the loop is the first run ever.
func BenchmarkConnectOldStdio(b *testing.B) {
	bin := needFaultServer(b)
	servers := map[string]any{"old": map[string]any{"command": bin, "args": []string{"-old-protocol", "2025-06-18"}}}
	cache := filepath.Join(b.TempDir(), "cache")
	start := func() {
		e := realEngine(b, servers, nil, func(o *Options) { o.CacheDir = cache })
		if err := e.Start(context.Background()); err != nil {
			b.Fatal(err)
		}
		awaitAll(b, e, 1)
		b.StopTimer()
		_ = e.Close()
		b.StartTimer()
	}
	b.StopTimer()
	start()
	b.StartTimer()
	for b.Loop() {
		start()
	}
}
