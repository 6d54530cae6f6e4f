package model

import (
	"strings"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Redact returns raw, a server definition as written (before ${VAR}
// expansion), with its secrets replaced by Masked, ready to be shown: the
// places secretSpots lists (env and header values, the URL's userinfo and
// secret-looking query parameters, and arguments that follow or carry a
// secret-looking flag), the places Server.Secrets takes its set from.
// Values made only of ${VAR} references (optionally after an auth scheme
// such as "Bearer ") hold no secret and are kept, so the person can see
// which variable feeds them. Unknown fields (Extra) are dropped. raw is not
// modified. Never pass an expanded config: its secrets are literal text and
// would all be masked, hiding which variable they came from.
func Redact(raw ServerConfig) ServerConfig {
	out := secretSpots(raw, func(_, v string) string { return textsafe.MaskWritten(v) })
	out.Extra = nil
	if raw.OAuth != nil {
		o := *raw.OAuth
		o.Scopes = append([]string(nil), raw.OAuth.Scopes...)
		o.Extra = nil
		out.OAuth = &o
	}
	return out
}

// RedactTarget is the one-line command line or URL shown in lists for cfg,
// which must already have been through Redact.
func RedactTarget(cfg ServerConfig) string {
	switch cfg.EffectiveType() {
	case TransportStdio:
		return strings.TrimSpace(cfg.Command + " " + strings.Join(cfg.Args, " "))
	case TransportSDK:
		return "built-in " + cfg.Name
	case TransportSSE, TransportHTTP, TransportWS:
		return cfg.URL
	}
	return cfg.URL
}
