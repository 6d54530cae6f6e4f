package model

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
)

// ConfigHash is the SHA-256 (hex) of the canonical JSON of a definition as
// written (before ${VAR} expansion, scope excluded): map keys sorted, no
// insignificant whitespace, an absent type counted as "stdio". The engine uses
// it to reconnect only servers whose definition changed, oauth keys tokens by
// it, and project approvals are tied to it.
func ConfigHash(cfg ServerConfig) string {
	sum := sha256.Sum256(canonicalJSON(cfg))
	return hex.EncodeToString(sum[:])
}

// canonicalJSON renders cfg with sorted keys. Extra values are re-encoded
// through any (with json.Number so numbers keep their exact text) so their
// layout in the file does not matter.
func canonicalJSON(cfg ServerConfig) []byte {
	if cfg.Type == "" {
		cfg.Type = TransportStdio
	}
	b, err := json.Marshal(cfg)
	if err != nil {
		// Only an invalid Extra RawMessage can fail; hash what we can so the
		// hash still changes when anything else changes.
		cfg.Extra = nil
		b, _ = json.Marshal(cfg)
	}
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return b
	}
	out, err := marshalNoEscape(v)
	if err != nil {
		return b
	}
	return out
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
