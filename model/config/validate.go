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
	switch t := cfg.EffectiveType(); t {
	case model.TransportStdio:
		switch {
		case strings.TrimSpace(cfg.Command) != "":
		case cfg.Type == "" && cfg.URL != "":
			bad("type", `a server with a url needs "type": "http", "sse" or "ws" (without a type it is a stdio server)`)
		default:
			bad("command", "a stdio server needs a command")
		}
	case model.TransportSSE, model.TransportHTTP:
		checkURL(cfg.URL, []string{"http", "https"}, bad)
	case model.TransportWS:
		checkURL(cfg.URL, []string{"ws", "wss"}, bad)
	case model.TransportSDK:
		if cfg.Name == "" {
			bad("name", "an sdk server needs the name of a built-in server")
		}
	default:
		bad("type", "unknown transport "+strconv.Quote(string(t))+" (use stdio, sse, http, ws or sdk)")
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
