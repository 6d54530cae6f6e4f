package main

import (
	"regexp"
	"strings"
)

// explained decides whether an error an agent got is a sentence that
// names the server and the cause, and if not, says what is missing. The
// rule, precisely:
//
//  1. It names the server the call went to, in one of the two forms
//     mcpdeck words failures in: "server NAME …" (the server's state:
//     "server s1 is not connected (attempt 2/5 · retry in 4s): …") or
//     "… on NAME: …" (a request that failed: "tool call on s1: the
//     connection was lost …"). NAME is matched whole.
//  2. After the name there is a cause: at least three words of text
//     (not an empty "server s1 failed").
//  3. It carries none of the raw wording of Go's and mcp-go's errors
//     (rawFragments): mcpdeck promises to turn those into sentences, so
//     one showing through is a failure not explained, even when a
//     sentence surrounds it. What follows "the server answered with an
//     error: " is the server's own text, relayed as it is, and exempt.
func explained(msg, server string) (bool, string) {
	if msg == "" {
		return false, "empty message"
	}
	// What a server answered is its own text, relayed as it is.
	own, _, _ := strings.Cut(msg, serverSaid)
	for _, raw := range rawFragments {
		if raw.MatchString(own) {
			return false, "raw error text " + raw.String()
		}
	}
	name := regexp.QuoteMeta(server)
	forms := regexp.MustCompile(`(?:\bserver ` + name + `|\bon ` + name + `:)(?:[^A-Za-z0-9_-]|$)(.*)$`)
	m := forms.FindStringSubmatch(msg)
	if m == nil {
		return false, `does not name the server ("server ` + server + `" or "on ` + server + `:")`
	}
	if len(strings.FieldsFunc(m[1], func(r rune) bool { return !isWordRune(r) })) < 3 {
		return false, "no cause after the server's name"
	}
	return true, ""
}

// serverSaid introduces a server's own error text in mcpdeck's sentences.
const serverSaid = "the server answered with an error: "

func isWordRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9'
}

// rawFragments are the wordings of errors that reach a person only when
// nothing turned them into a sentence.
var rawFragments = func() []*regexp.Regexp {
	var out []*regexp.Regexp
	for _, p := range []string{
		`transport error`,
		`failed to send request`,
		`context deadline exceeded`,
		`context canceled`,
		`(?:^|[:;(] ?)(?:unexpected )?EOF\b`, // ": EOF", "(EOF", "unexpected EOF" as a cause
		`use of closed network connection`,
		`\b(?:read|write|dial) (?:tcp|unix|udp)\b`,
		`connection reset by peer`,
		`\bbroken pipe\b`,
		`i/o timeout`,
		`%!`,
		`<nil>`,
		`\bjson: `,
		`unexpected end of JSON input`,
		`invalid character '`,
		`\bhttp: `,
		`\bgoroutine \d+`,
		`\bpanic\b`,
		`0x[0-9a-f]{6,}`,
	} {
		out = append(out, regexp.MustCompile(p))
	}
	return out
}()
