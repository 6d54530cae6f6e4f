package serve

import (
	"testing"
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
