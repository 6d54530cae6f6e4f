package scan

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/pins"
)

// BenchmarkScan10000Tools is the scan of the largest listing the engine
// keeps: 10 000 tools of a 1 KB description each.
func BenchmarkScan10000Tools(b *testing.B) {
	h := pins.NewHasher()
	items := make([]pins.Item, 10000)
	desc := strings.Repeat("Reads a record from the service and returns it as JSON. ", 18)
	for i := range items {
		items[i] = h.Tool(pins.Tool{Name: fmt.Sprintf("tool_%d", i), Description: desc, InputSchema: []byte(`{"type":"object","properties":{"id":{"type":"string"}}}`)})
	}
	b.ReportAllocs()
	for b.Loop() {
		_ = Server("s", items, Context{})
	}
}
