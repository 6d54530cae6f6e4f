package config

import (
	"encoding/json"

	"github.com/mcpdeck/mcpdeck/model"
)

// pinToolsKey turns tool pinning off for a server that changes its tools
// by design: "pinTools": false.
const pinToolsKey = "pinTools"

// PinsOff says why what s tells a model is not pinned, "" when it is (the
// default). Only "pinTools": false in the person's user or local scope
// turns pinning off, and never under managed policy's forceToolPinning
// (forced): a repository's .mcp.json cannot, nor can a plugin or an
// editor. note is a sentence for a "pinTools" that does not count (wrong
// scope or type), "" otherwise.
func PinsOff(s model.Server, forced bool) (off, note string) {
	raw, ok := s.Raw.Extra[pinToolsKey]
	if !ok {
		return "", ""
	}
	var v bool
	if err := json.Unmarshal(raw, &v); err != nil {
		return "", `"pinTools" is not true or false; tools stay pinned`
	}
	switch {
	case v:
		return "", ""
	case s.Scope != model.ScopeUser && s.Scope != model.ScopeLocal:
		return "", `"pinTools": false counts only in your user or local config, not in ` + s.Scope.String() + " scope; tools stay pinned"
	case forced:
		return "", `"pinTools": false is overridden by managed policy (forceToolPinning); tools stay pinned`
	}
	return `"pinTools": false in your ` + s.Scope.String() + " config", ""
}
