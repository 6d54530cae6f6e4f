package engine

import (
	"context"
	"encoding/json"
	"testing"
)

// FuzzAcceptDefaults feeds server-supplied elicitation schemas to the
// accept-defaults policy: it must never panic, and an accepted answer must
// cover every required property.
func FuzzAcceptDefaults(f *testing.F) {
	f.Add(`{"type":"object","properties":{"a":{"type":"string","default":"x"}},"required":["a"]}`)
	f.Add(`{"properties":{"a":{}},"required":["a","b"]}`)
	f.Add(`[]`)
	f.Add(`{"properties":null,"required":[1]}`)
	f.Fuzz(func(t *testing.T, schema string) {
		r, err := acceptDefaults(context.Background(), ElicitRequest{Server: "s", Mode: "form", Schema: json.RawMessage(schema)})
		if err != nil {
			t.Fatal(err)
		}
		if r.Action == ElicitAccept {
			var s struct {
				Required []string `json:"required"`
			}
			if json.Unmarshal([]byte(schema), &s) == nil {
				for _, name := range s.Required {
					if _, ok := r.Content[name]; !ok {
						t.Fatalf("accepted without required %q", name)
					}
				}
			}
		}
	})
}
