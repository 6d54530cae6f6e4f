package model

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestOAuthAssertionFields checks that the workload identity settings are
// known fields: decoded, ${VAR}-expanded, written back, part of the
// definition hash and shown for approval, not left in Extra.
func TestOAuthAssertionFields(t *testing.T) {
	var cfg ServerConfig
	in := `{"type":"http","url":"https://x/mcp","oauth":{"grant":"jwt_bearer","assertionFile":"${DIR}/w.jwt","assertionCommand":"get-token"}}`
	if err := json.Unmarshal([]byte(in), &cfg); err != nil {
		t.Fatal(err)
	}
	o := cfg.OAuth
	if o == nil || o.AssertionFile != "${DIR}/w.jwt" || o.AssertionCommand != "get-token" || len(o.Extra) != 0 {
		t.Fatalf("decoded %+v", o)
	}
	out, _, probs := cfg.Expand(func(k string) (string, bool) { return "/run/ci", k == "DIR" }, nil, "")
	if len(probs) != 0 || out.OAuth.AssertionFile != "/run/ci/w.jwt" {
		t.Errorf("expanded %q, problems %v", out.OAuth.AssertionFile, probs)
	}
	b, err := json.Marshal(cfg)
	if err != nil || !strings.Contains(string(b), `"assertionFile":"${DIR}/w.jwt"`) || !strings.Contains(string(b), `"assertionCommand":"get-token"`) {
		t.Errorf("marshalled %s, %v", b, err)
	}
	other := cfg
	oo := *cfg.OAuth
	oo.AssertionCommand = "get-other-token"
	other.OAuth = &oo
	if ConfigHash(cfg) == ConfigHash(other) {
		t.Error("a changed assertionCommand keeps the definition hash (no re-approval)")
	}
}
