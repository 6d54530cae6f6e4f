package config

import (
	"net/url"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// validate checks that an (expanded) definition can be run at all: a known
// transport and the fields that transport needs. The engine relies on it:
// a server without problems has everything its transport requires.
func validate(cfg model.ServerConfig) []model.Problem {
	var probs []model.Problem
	bad := func(field, msg string) { probs = append(probs, model.Problem{Field: field, Message: msg}) }
	t := cfg.EffectiveType().Info()
	switch {
	case t.Editor:
		bad("type", "a "+string(t.Name)+" server is an editor's, found through the lock file the editor writes; a definition cannot name one")
	case t.Program:
		switch {
		case strings.TrimSpace(cfg.Command) != "":
		case cfg.Type == "" && cfg.URL != "":
			remote := model.TransportNames(func(i model.TransportInfo) bool { return i.Remote }, "or")
			bad("type", `a server with a url needs a "type" (`+remote+`); without one it is a `+string(cfg.EffectiveType())+" server")
		default:
			bad("command", "a "+string(t.Name)+" server needs a command")
		}
	case t.Remote:
		checkURL(cfg.URL, t.Schemes, bad)
	case t.Builtin:
		if cfg.Name == "" {
			bad("name", "an "+string(t.Name)+" server needs the name of a built-in server")
		}
	default:
		all := model.TransportNames(func(model.TransportInfo) bool { return true }, "or")
		bad("type", "unknown transport "+strconv.Quote(string(t.Name))+" (use "+all+")")
	}
	if cfg.Sandbox != nil && !t.Program {
		bad("sandbox", "only a server mcpdeck starts (stdio) can be sandboxed; a "+string(t.Name)+" server runs elsewhere")
	}
	return probs
}

// checkURL reports a missing, unparsable or wrong-scheme URL.
func checkURL(raw string, schemes []string, bad func(field, msg string)) {
	if raw == "" {
		bad("url", "a remote server needs a url")
		return
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		bad("url", strconv.Quote(raw)+" is not an absolute URL")
		return
	}
	for _, s := range schemes {
		if strings.EqualFold(u.Scheme, s) {
			return
		}
	}
	bad("url", "the URL scheme must be "+strings.Join(schemes, " or ")+", got "+strconv.Quote(u.Scheme))
}
