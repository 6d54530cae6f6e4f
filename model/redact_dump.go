package model

import (
	"bytes"
	"encoding/json"
	"regexp"
	"strings"
)

// dumpMember finds a JSON member whose value is a string: "name": "value".
var dumpMember = regexp.MustCompile(`"([A-Za-z0-9_.-]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"`)

// dumpPair finds a name=value or name: value pair in free text (a log
// line) whose name mentions a credential; credentialName decides.
var dumpPair = regexp.MustCompile(`(?i)\b([A-Za-z0-9_.-]*(?:token|secret|passw(?:or)?d|api[-_]?key|credential|authorization|cookie)[A-Za-z0-9_.-]*)(\s*[=:]\s*)([^\s"',;&]{4,})`)

// credentialName reports whether a JSON member or key=value name holds a
// credential: access_token, refreshToken, client_secret, password,
// api_key, Authorization, Cookie… — but not a progressToken, which MCP
// uses to match progress notifications to their request.
func credentialName(name string) bool {
	n := strings.ToLower(name)
	if n == "progresstoken" {
		return false
	}
	if strings.HasSuffix(n, "token") {
		return true
	}
	for _, w := range []string{"secret", "password", "passwd", "apikey", "api_key", "api-key", "authorization", "credential", "privatekey", "private_key", "cookie"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}

// RedactDump masks the secrets a block of text may hold before it goes
// where other people read it (a traffic frame's body, a server's stderr, a
// support bundle): what RedactText masks (URL credentials, Bearer/Basic
// credentials, JSON Web Tokens, every one of secrets), the same secrets as
// they appear escaped inside JSON strings, and the values of JSON members
// and name=value pairs whose names are credentials ("access_token": "…",
// API_KEY=…). It returns the text and how many values it masked.
func RedactDump(s string, secrets ...string) (string, int) {
	if s == "" {
		return s, 0
	}
	before := strings.Count(s, Masked)
	s = RedactText(s, withJSONForms(secrets)...)
	s = dumpMember.ReplaceAllStringFunc(s, func(m string) string {
		sub := dumpMember.FindStringSubmatch(m)
		if !credentialName(sub[1]) || sub[3] == "" || sub[3] == Masked {
			return m
		}
		return `"` + sub[1] + `"` + sub[2] + `"` + Masked + `"`
	})
	s = dumpPair.ReplaceAllStringFunc(s, func(m string) string {
		sub := dumpPair.FindStringSubmatch(m)
		if !credentialName(sub[1]) || sub[3] == Masked {
			return m
		}
		return sub[1] + sub[2] + Masked
	})
	return s, max(0, strings.Count(s, Masked)-before)
}

// withJSONForms adds to secrets each one as it reads inside a JSON string,
// when that differs ("a&b" is "a\u0026b" from Go's encoder, a quote or a
// backslash gains a backslash), so a secret echoed in a JSON body is found.
func withJSONForms(secrets []string) []string {
	out := secrets
	for _, v := range secrets {
		for _, html := range []bool{false, true} {
			var b bytes.Buffer
			enc := json.NewEncoder(&b)
			enc.SetEscapeHTML(html)
			if enc.Encode(v) != nil {
				continue
			}
			e := strings.TrimSuffix(b.String(), "\n")
			e = e[1 : len(e)-1]
			if e != v {
				if len(out) == len(secrets) {
					out = append([]string(nil), secrets...)
				}
				out = append(out, e)
			}
		}
	}
	return out
}
