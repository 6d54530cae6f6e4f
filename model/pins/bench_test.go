package pins

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// BenchmarkHash300Tools is the cost of pinning a listing of 300 tools
// of a realistic size (a paragraph of description, a schema of a few
// properties in the key order servers write): the target is under 1 ms.
func BenchmarkHash300Tools(b *testing.B) {
	tools := make([]Tool, 300)
	for i := range tools {
		tools[i] = Tool{
			Name:        fmt.Sprintf("tool_%d", i),
			Title:       fmt.Sprintf("Tool %d", i),
			Description: strings.Repeat("Reads a record from the service and returns it as JSON. ", 4),
			InputSchema: json.RawMessage(`{"type":"object","properties":{"id":{"type":"string","description":"The record's id."},` +
				`"fields":{"type":"array","items":{"type":"string"}},"limit":{"type":"integer","minimum":1,"maximum":100}},"required":["id"],"additionalProperties":false}`),
			OutputSchema: json.RawMessage(`{"type":"object","properties":{"record":{"type":"object"}}}`),
			Annotations:  json.RawMessage(`{"title":"Read","readOnlyHint":true,"openWorldHint":false}`),
		}
	}
	b.ReportAllocs()
	for b.Loop() {
		h := NewHasher()
		for _, t := range tools {
			_ = h.Tool(t)
		}
	}
}
