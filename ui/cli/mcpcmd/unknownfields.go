package mcpcmd

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clinames"
)

// typoOf is the known field an unknown one most likely meant, as a path
// ("oauth.clientId" for "oauth.clientID"); "" when none is close.
func typoOf(u config.UnknownField) string {
	s, ok := clinames.Suggest(u.Name, u.Known)
	if !ok {
		return ""
	}
	return strings.TrimSuffix(u.Field, u.Name) + s
}

// unknownFieldText names an unknown field for people, with the field it
// most likely meant: `mcp get` lists it under "Config problems".
func unknownFieldText(u config.UnknownField) string {
	msg := fmt.Sprintf("unknown field %q", u.Field)
	if t := typoOf(u); t != "" {
		msg += fmt.Sprintf(" (did you mean %q?)", t)
	}
	return textsafe.SanitizeLine(msg + ": mcpdeck does not use it")
}
