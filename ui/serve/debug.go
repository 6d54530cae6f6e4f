package serve

import (
	"encoding/json"
	"net/http"
	"os"
	"runtime/metrics"
)

// DebugEnv, set to 1, makes `serve --http` answer GET /debug/runtime
// (runtimeStats) on its own listener, behind its token: how a soak run
// (testdata/soak) sees the gateway's goroutines and heap from outside
// without a listener of its own. Off, the path is not served at all.
const DebugEnv = "MCPDECK_SERVE_DEBUG"

// DebugEnabled says whether DebugEnv asks for /debug/runtime: only the
// value 1 does. A nil lookupEnv is os.LookupEnv.
func DebugEnabled(lookupEnv func(string) (string, bool)) bool {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	v, _ := lookupEnv(DebugEnv)
	return v == "1"
}

// runtimeMetrics are the figures /debug/runtime gives, by the names
// runtime/metrics reads them under.
var runtimeMetrics = [...]struct{ key, name string }{
	{"goroutines", "/sched/goroutines:goroutines"},
	{"heap_object_bytes", "/memory/classes/heap/objects:bytes"},
	{"heap_live_bytes", "/gc/heap/live:bytes"},
	{"total_bytes", "/memory/classes/total:bytes"},
	{"released_bytes", "/memory/classes/heap/released:bytes"},
	{"gc_cycles", "/gc/cycles/total:gc-cycles"},
}

// runtimeStats answers GET /debug/runtime: counts only (goroutines, heap
// bytes, GC cycles), nothing about the servers, the agents or the person.
func runtimeStats(w http.ResponseWriter, _ *http.Request) {
	samples := make([]metrics.Sample, len(runtimeMetrics))
	for i, m := range runtimeMetrics {
		samples[i].Name = m.name
	}
	metrics.Read(samples)
	out := make(map[string]uint64, len(samples))
	for i, s := range samples {
		if s.Value.Kind() == metrics.KindUint64 {
			out[runtimeMetrics[i].key] = s.Value.Uint64()
		}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(out)
}
