package engine

import (
	"maps"
	"net/url"
	"regexp"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

const masked = "••••"

// secretName matches names (flags, query parameters) whose value is a
// secret: --token=x inline, or --api-key x where maskArgs looks at the flag
// before the value.
var secretName = regexp.MustCompile(`(?i)(token|secret|password|passwd|api[-_]?key|auth|credential|bearer)`)

// maskConfig returns cfg with secrets replaced: every env and header value,
// credentials and secret-looking query parameters in the URL, and args that
// follow or carry a secret-looking flag.
func maskConfig(cfg model.ServerConfig) model.ServerConfig {
	out := cfg
	if len(cfg.Env) > 0 {
		out.Env = maps.Clone(cfg.Env)
		for k := range out.Env {
			out.Env[k] = masked
		}
	}
	if len(cfg.Headers) > 0 {
		out.Headers = maps.Clone(cfg.Headers)
		for k := range out.Headers {
			out.Headers[k] = masked
		}
	}
	out.URL = maskURL(cfg.URL)
	out.Args = maskArgs(cfg.Args)
	out.Extra = nil
	if cfg.OAuth != nil {
		o := *cfg.OAuth
		o.Extra = nil
		out.OAuth = &o
	}
	return out
}

func maskURL(raw string) string {
	if raw == "" {
		return ""
	}
	u, err := url.Parse(raw)
	if err != nil {
		return raw
	}
	if u.User != nil {
		u.User = url.User(masked)
	}
	q := u.Query()
	changed := false
	for k := range q {
		if secretName.MatchString(k) || strings.EqualFold(k, "key") {
			q.Set(k, masked)
			changed = true
		}
	}
	if changed {
		u.RawQuery = q.Encode()
	}
	return u.String()
}

func maskArgs(args []string) []string {
	if len(args) == 0 {
		return args
	}
	out := make([]string, len(args))
	prevSecret := false
	for i, a := range args {
		switch {
		case prevSecret && !strings.HasPrefix(a, "-"):
			out[i] = masked
		case strings.HasPrefix(a, "-") && strings.Contains(a, "=") && secretName.MatchString(a[:strings.Index(a, "=")]):
			out[i] = a[:strings.Index(a, "=")+1] + masked
		default:
			out[i] = a
		}
		prevSecret = strings.HasPrefix(a, "-") && !strings.Contains(a, "=") && secretName.MatchString(a)
	}
	return out
}

// target is the one-line command or URL shown in lists, already masked.
func target(cfg model.ServerConfig) string {
	switch cfg.EffectiveType() {
	case model.TransportStdio:
		return strings.TrimSpace(cfg.Command + " " + strings.Join(cfg.Args, " "))
	case model.TransportSDK:
		return "built-in " + cfg.Name
	case model.TransportSSE, model.TransportHTTP, model.TransportWS:
		return cfg.URL
	}
	return cfg.URL
}
