package jsonfile

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

// FuzzParse feeds arbitrary bytes to the configuration parser: it must never
// panic, must accept exactly what encoding/json calls valid (top-level
// objects), must locate every problem inside the document, and every server
// it decodes must survive a marshal/unmarshal round trip with the same hash.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		`{"mcpServers":{"a":{"command":"npx","args":["-y","x"],"env":{"K":"${V}"}}}}`,
		`{"mcpServers":{"r":{"type":"http","url":"https://e.com","headers":{"A":"b"},"oauth":{"clientId":"c","callbackPort":8080,"scopes":["s"]},"x":[1,{"y":null}]}}}`,
		"\xEF\xBB\xBF{\"mcpServers\":{}}",
		`{"mcpServers":{"a":{"args":"str"}}}`,
		`{"a":1,"a":2}`,
		`{"mcpServers":{"a":{},"a":{}}}`,
		`{"mcpServers": {`,
		`[1,2]`,
		`{"mcpServers":{"a":{"oauth":{"callbackPort":1e3}}}}`,
		`{"k":"\ud83d\ude00 \u0000"}`,
		``,
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		file, prob := Parse("fuzz.json", data)
		if prob != nil {
			if prob.File != "fuzz.json" || prob.Message == "" {
				t.Fatalf("problem without location or message: %+v", prob)
			}
			if prob.Line > 0 && prob.Line > strings.Count(string(data), "\n")+1 {
				t.Fatalf("problem line %d beyond the document", prob.Line)
			}
			return
		}
		doc := file.Doc
		if len(strings.TrimSpace(string(doc))) > 0 && !json.Valid(doc) {
			t.Fatalf("parser accepted invalid JSON %q", doc)
		}
		defs, _ := ServersIn(file, model.ScopeUser, "fuzz.json")
		for _, d := range defs {
			if len(d.Problems) > 0 {
				continue
			}
			b, err := json.Marshal(d.Raw)
			if err != nil {
				t.Fatalf("marshal %q: %v", d.Name, err)
			}
			var back model.ServerConfig
			if err := json.Unmarshal(b, &back); err != nil {
				t.Fatalf("re-parse of %s: %v", b, err)
			}
			if model.ConfigHash(back) != model.ConfigHash(d.Raw) {
				t.Fatalf("round trip changed %q:\n%s", d.Name, model.Diff(d.Raw, back))
			}
		}
	})
}
