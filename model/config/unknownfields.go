package config

import (
	"maps"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
)

// samplingKey is the field of a definition that SamplingCommand reads: not
// one ServerConfig decodes, yet not unknown.
const samplingKey = "sampling"

// UnknownField is a field of a definition mcpdeck does not use: kept as
// written (another client may), but most likely a typo when one of Known
// is close to it.
type UnknownField struct {
	// Field is its path: "agrs", or "oauth.clientID" inside oauth.
	Field string
	// Name is the key as written ("clientID"); Known the names that may
	// stand there.
	Name  string
	Known []string
}

// UnknownFields lists the fields of raw, a definition as written, that
// mcpdeck does not use, sorted: `mcp add-json` and `mcp get` name them.
func UnknownFields(raw model.ServerConfig) []UnknownField {
	var out []UnknownField
	top := append(model.ServerKeys(), samplingKey, pinToolsKey)
	for _, k := range slices.Sorted(maps.Keys(raw.Extra)) {
		if k != samplingKey && k != pinToolsKey {
			out = append(out, UnknownField{Field: k, Name: k, Known: top})
		}
	}
	if raw.OAuth != nil {
		for _, k := range slices.Sorted(maps.Keys(raw.OAuth.Extra)) {
			out = append(out, UnknownField{Field: "oauth." + k, Name: k, Known: model.OAuthKeys()})
		}
	}
	if raw.Sandbox != nil {
		for _, k := range slices.Sorted(maps.Keys(raw.Sandbox.Extra)) {
			out = append(out, UnknownField{Field: "sandbox." + k, Name: k, Known: model.SandboxKeys()})
		}
	}
	return out
}
