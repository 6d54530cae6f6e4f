package serve

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// BenchmarkCallThroughGateway is one tools/call of a real stdio server
// through mcpdeck serve (agent over stdio or HTTP → gateway → engine →
// server), against the same call made on the engine directly: the
// difference is what the gateway costs.
func BenchmarkCallThroughGateway(b *testing.B) {
	r := newRig(b, map[string]any{"fa": fault(nil, nil)}, Options{}, nil)
	args := map[string]any{"text": "x"}
	b.Run("engine", func(b *testing.B) {
		r.httpAgent().toolNames(b) // wait for the server
		for b.Loop() {
			if _, err := r.gw.eng.CallToolRaw(b.Context(), "fa", "echo", args, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
	for _, via := range []string{"stdio", "http"} {
		b.Run(via, func(b *testing.B) {
			a := r.httpAgent()
			if via == "stdio" {
				a = r.stdioAgent()
			}
			for b.Loop() {
				if got, isErr := a.call(b, "fa__echo", args); isErr || got != "x" {
					b.Fatalf("%q %v", got, isErr)
				}
			}
		})
	}
}

// BenchmarkApplyTrafficSnapshot is what the gateway spends on a snapshot
// that changes only a server's traffic (one every 200 ms while frames
// flow), for a server of 10 000 tools with 2.5 KB schemas: the exposure is
// kept, not built again (building it checks every schema).
func BenchmarkApplyTrafficSnapshot(b *testing.B) {
	g := offline(b).gw
	schema := json.RawMessage(`{"type":"object","properties":{"x":{"type":"string","description":"` + strings.Repeat("d", 2400) + `"}}}`)
	tools := make([]engine.Tool, 10_000)
	for i := range tools {
		tools[i] = engine.Tool{Name: fmt.Sprint("t", i), InputSchema: schema}
	}
	srv := engine.ServerSnapshot{Name: "big", State: model.StateConnected, Runnable: true, Tools: tools}
	g.syncer.apply(engine.Snapshot{Seq: 1, Servers: []engine.ServerSnapshot{srv}})
	seq := uint64(1)
	for b.Loop() {
		seq++
		srv.Traffic = []engine.Frame{{Method: "tools/call"}}
		g.syncer.apply(engine.Snapshot{Seq: seq, Servers: []engine.ServerSnapshot{srv}})
	}
}
