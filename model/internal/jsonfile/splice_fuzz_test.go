package jsonfile

import (
	"encoding/json"
	"reflect"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// FuzzEdit applies SetMember and DeleteMember to arbitrary JSON objects: the
// result must be valid JSON in which exactly the edited member changed.
func FuzzEdit(f *testing.F) {
	for _, s := range []string{
		`{}`, `{"mcpServers":{}}`, "{\n  \"a\": 1,\n  \"mcpServers\": {\n    \"x\": {\"command\": \"y\"}\n  }\n}\n",
		`{"mcpServers":{"x":1,"y":[1,2],"z":null}}`, `{"mcpServers":null,"b":{"c":{}}}`, "{\t\"k\"\t:\t[]\t}",
	} {
		f.Add([]byte(s), "x")
	}
	f.Fuzz(func(t *testing.T, doc []byte, key string) {
		if model.CheckServerName(key) != nil {
			return // AddServer refuses such names before editing
		}
		root, err := jsondoc.Parse(doc)
		if err != nil || root.Kind != '{' || len(root.Dups) > 0 {
			return
		}
		if ms := root.Get(ServersKey); ms != nil && (ms.Kind != '{' && ms.Kind != 'z' || len(ms.Dups) > 0) {
			return
		}
		var before map[string]any
		if json.Unmarshal(doc, &before) != nil {
			return
		}
		path := []string{ServersKey, key}
		out, err := SetMember(doc, path, model.ServerConfig{Command: "c", Args: []string{"a"}})
		if err != nil {
			t.Fatalf("setMember: %v", err)
		}
		var after map[string]any
		if err := json.Unmarshal(out, &after); err != nil {
			t.Fatalf("setMember produced invalid JSON %q from %q: %v", out, doc, err)
		}
		servers, _ := after[ServersKey].(map[string]any)
		want := map[string]any{"command": "c", "args": []any{"a"}}
		if !reflect.DeepEqual(servers[key], want) {
			t.Fatalf("member not set: %q", out)
		}
		if oldServers, ok := before[ServersKey].(map[string]any); ok {
			for k, v := range oldServers {
				if k != key && !reflect.DeepEqual(servers[k], v) {
					t.Fatalf("sibling %q changed: %q -> %q", k, doc, out)
				}
			}
		}
		for k, v := range before {
			if k != ServersKey && !reflect.DeepEqual(after[k], v) {
				t.Fatalf("top-level %q changed: %q -> %q", k, doc, out)
			}
		}
		back, found, err := DeleteMember(out, path)
		if err != nil || !found {
			t.Fatalf("deleteMember: %v %v", found, err)
		}
		var final map[string]any
		if err := json.Unmarshal(back, &final); err != nil {
			t.Fatalf("deleteMember produced invalid JSON %q: %v", back, err)
		}
		if s, _ := final[ServersKey].(map[string]any); s != nil {
			if _, still := s[key]; still {
				t.Fatalf("member still present: %q", back)
			}
		}
	})
}
