package textsafe

import (
	"strings"
)

// redactURL hides the secrets a server URL may carry as written: the
// userinfo (the password of user:password@, or a lone user, which is often a
// token) and the values of query parameters whose names look like
// credentials, unless the value is only ${VAR} references. The rest is kept
// byte for byte (no re-encoding) so the person can still recognise the
// server.
func redactURL(raw string) string { return ReplaceURLSecrets(raw, MaskWritten) }

// ReplaceURLSecrets returns raw with its user info's password (or lone user name)
// and the values of its secret-looking query parameters replaced by f's
// answer, as written (no decoding, no re-encoding); the rest is kept byte
// for byte.
func ReplaceURLSecrets(raw string, f func(string) string) string {
	out := raw
	if i := strings.Index(out, "://"); i >= 0 {
		rest := out[i+3:]
		end := strings.IndexAny(rest, "/?#")
		if end < 0 {
			end = len(rest)
		}
		if at := strings.LastIndexByte(rest[:end], '@'); at >= 0 {
			userinfo := rest[:at]
			if user, pass, ok := strings.Cut(userinfo, ":"); ok {
				userinfo = user + ":" + f(pass)
			} else {
				userinfo = f(user)
			}
			out = out[:i+3] + userinfo + rest[at:]
		}
	}
	q := strings.IndexByte(out, '?')
	if q < 0 {
		return out
	}
	query, frag, hasFrag := strings.Cut(out[q+1:], "#")
	parts := strings.Split(query, "&")
	for i, part := range parts {
		k, v, ok := strings.Cut(part, "=")
		if ok && v != "" && secretParam(k) {
			parts[i] = k + "=" + f(v)
		}
	}
	out = out[:q+1] + strings.Join(parts, "&")
	if hasFrag {
		out += "#" + frag
	}
	return out
}

// secretParam reports whether a query parameter name looks like a
// credential (api_key, token, secret, password, auth, sig, ...).
func secretParam(name string) bool {
	n := strings.ToLower(name)
	for _, s := range []string{"key", "token", "secret", "pass", "auth", "sig", "cred", "session", "bearer"} {
		if strings.Contains(n, s) {
			return true
		}
	}
	return false
}

// ReplaceFlagSecrets returns args with the value of each secret-looking flag, inline
// (--api-key=x) or the next argument (--token x), replaced by f(index,
// value).
func ReplaceFlagSecrets(args []string, f func(i int, v string) string) []string {
	if len(args) == 0 {
		return args
	}
	out := make([]string, len(args))
	prevSecret := false
	for i, a := range args {
		out[i] = a
		flag, value, inline := strings.Cut(a, "=")
		isFlag := strings.HasPrefix(a, "-")
		switch {
		case prevSecret && !isFlag:
			out[i] = f(i, a)
		case isFlag && inline && secretFlag.MatchString(flag):
			if value != "" {
				out[i] = flag + "=" + f(i, value)
			}
		}
		prevSecret = isFlag && !inline && secretFlag.MatchString(a)
	}
	return out
}
