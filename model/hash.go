package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// ConfigHash is the SHA-256 (hex) of the canonical JSON of a definition as
// written (before ${VAR} expansion, scope excluded): map keys sorted, no
// insignificant whitespace, an absent type counted as EffectiveType. The engine uses
// it to reconnect only servers whose definition changed, oauth keys tokens by
// it, and project approvals are tied to it.
func ConfigHash(cfg ServerConfig) string {
	sum := sha256.Sum256(canonicalJSON(cfg))
	return hex.EncodeToString(sum[:])
}

// canonicalJSON renders cfg with sorted keys (encoding/json sorts map keys)
// and no insignificant whitespace. Extra values are decoded with json.Number
// so numbers keep their exact text and layout in the file does not matter.
func canonicalJSON(cfg ServerConfig) []byte {
	m := map[string]any{}
	put := func(k string, v any, set bool) {
		if set {
			m[k] = v
		}
	}
	put("type", string(cfg.EffectiveType()), true)
	put("command", cfg.Command, cfg.Command != "")
	put("args", cfg.Args, len(cfg.Args) > 0)
	put("env", cfg.Env, len(cfg.Env) > 0)
	put("cwd", cfg.Cwd, cfg.Cwd != "")
	put("url", cfg.URL, cfg.URL != "")
	put("headers", cfg.Headers, len(cfg.Headers) > 0)
	put("headersHelper", cfg.HeadersHelper, cfg.HeadersHelper != "")
	put("name", cfg.Name, cfg.Name != "")
	put("protocolVersion", cfg.ProtocolVersion, cfg.ProtocolVersion != "")
	if cfg.Sandbox != nil {
		m["sandbox"] = cfg.Sandbox.canonical()
	}
	addExtra(m, cfg.Extra, isServerKey)
	if o := cfg.OAuth; o != nil {
		om := map[string]any{}
		if o.ClientID != "" {
			om["clientId"] = o.ClientID
		}
		if o.CallbackPort != 0 {
			om["callbackPort"] = o.CallbackPort
		}
		if o.AuthServerMetadataURL != "" {
			om["authServerMetadataUrl"] = o.AuthServerMetadataURL
		}
		if len(o.Scopes) > 0 {
			om["scopes"] = o.Scopes
		}
		if o.ClientMetadataURL != "" {
			om["clientMetadataUrl"] = o.ClientMetadataURL
		}
		if o.Grant != "" {
			om["grant"] = o.Grant
		}
		if o.AssertionFile != "" {
			om["assertionFile"] = o.AssertionFile
		}
		if o.AssertionCommand != "" {
			om["assertionCommand"] = o.AssertionCommand
		}
		addExtra(om, o.Extra, isOAuthKey)
		m["oauth"] = om
	}
	b, err := jsondoc.MarshalNoEscape(m)
	if err != nil { // unreachable: every value above is encodable
		return nil
	}
	return b
}

// addExtra decodes unknown fields into m. A value that is not valid JSON
// (possible only when a caller built Extra by hand) is kept as its text.
func addExtra(m map[string]any, extra map[string]json.RawMessage, known func(string) bool) {
	for k, raw := range extra {
		if known(k) {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(raw))
		dec.UseNumber()
		var v any
		if err := dec.Decode(&v); err != nil {
			v = string(raw)
		}
		m[k] = v
	}
}

// prettyJSON renders cfg with sorted keys and two-space indentation, one
// value per line: the form Diff compares.
func prettyJSON(cfg ServerConfig) []byte {
	var out bytes.Buffer
	if err := json.Indent(&out, canonicalJSON(cfg), "", "  "); err != nil {
		return canonicalJSON(cfg)
	}
	return out.Bytes()
}
