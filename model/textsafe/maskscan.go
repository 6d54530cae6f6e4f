package textsafe

import (
	"slices"
	"strings"
)

// The scanners below find what redaction masks by looking for a literal
// ("://", a credential word) and reading around it. Regular expressions
// without a literal prefix try a match at every byte, which on a 64 KB
// traffic body costs milliseconds per pattern; these cost a search.

// replaceURLs returns s with every URL in it replaced by f's answer. A URL
// is a scheme (a letter, then letters, digits, "+", "." or "-"), "://",
// then everything up to white space, a quote, an angle bracket or a
// backtick (Go's *url.Error quotes the URL it names).
func replaceURLs(s string, f func(string) string) string {
	var b strings.Builder
	last, pos := 0, 0
	for {
		i := strings.Index(s[pos:], "://")
		if i < 0 {
			break
		}
		i += pos
		start := i
		for start > last && isSchemeByte(s[start-1]) {
			start--
		}
		for start < i && !isASCIILetter(s[start]) {
			start++
		}
		end := i + 3
		for end < len(s) && !isURLEnd(s[end]) {
			end++
		}
		if start == i || end == i+3 {
			pos = i + 1
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(f(s[start:end]))
		last, pos = end, end
	}
	if last == 0 {
		return s
	}
	b.WriteString(s[last:])
	return b.String()
}

func isASCIILetter(c byte) bool { return c|0x20 >= 'a' && c|0x20 <= 'z' }

func isSchemeByte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}

func isURLEnd(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\f', '\r', '"', '\'', '<', '>', '`':
		return true
	}
	return false
}

// asciiLower lowercases ASCII letters only, so byte offsets stay those of s.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if c >= 'A' && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// containsFold reports whether s holds word (ASCII, lower case) in any
// ASCII case.
func containsFold(s, word string) bool {
	firsts := word[:1] + strings.ToUpper(word[:1])
	for i := 0; i+len(word) <= len(s); i++ {
		j := strings.IndexAny(s[i:], firsts)
		if j < 0 {
			return false
		}
		i += j
		if i+len(word) <= len(s) && strings.EqualFold(s[i:i+len(word)], word) {
			return true
		}
	}
	return false
}

// credentialWords are the words whose presence makes a name worth reading
// (credentialName decides).
var credentialWords = []string{"token", "secret", "passw", "api", "authorization", "credential", "private", "cookie"}

// maskCredentials masks the values of credential-named members and pairs:
// a JSON member "access_token": "…" (also inside a JSON string, escaped
// as \"access_token\": \"…\"), and in free text API_KEY=…, password: …,
// or secret='…'. A value cut off by the end of s is masked to the end.
func maskCredentials(s string) string {
	lower := asciiLower(s)
	var spans [][2]int
	seen := map[int]bool{}
	for _, w := range credentialWords {
		for from := 0; ; {
			i := strings.Index(lower[from:], w)
			if i < 0 {
				break
			}
			i += from
			from = i + len(w)
			start, end := i, from
			for start > 0 && isNameByte(s[start-1]) {
				start--
			}
			for end < len(s) && isNameByte(s[end]) {
				end++
			}
			if seen[start] || !credentialName(s[start:end]) || strings.HasSuffix(s[:start], "${") {
				continue // ${secret:NAME} names a secret, it holds none
			}
			seen[start] = true
			if v, ok := credentialValue(s, start, end); ok {
				spans = append(spans, v)
			}
		}
	}
	if len(spans) == 0 {
		return s
	}
	slices.SortFunc(spans, func(a, b [2]int) int { return a[0] - b[0] })
	var b strings.Builder
	last := 0
	for _, sp := range spans {
		if sp[0] < last {
			continue
		}
		b.WriteString(s[last:sp[0]])
		b.WriteString(Masked)
		last = sp[1]
	}
	b.WriteString(s[last:])
	return b.String()
}

func isNameByte(c byte) bool {
	return isASCIILetter(c) || c >= '0' && c <= '9' || c == '_' || c == '.' || c == '-'
}

// credentialValue finds the value of the name s[start:end]: after a quote
// that closes a quoted name (plain, or \" inside a JSON string), optional
// blanks, ":" (or "=" for a bare name), optional blanks, then a string in
// the same quotes, or for a bare name a quoted or unquoted word of at
// least 4 bytes. It returns the value's span (without its quotes); a value
// that is already masked, empty or a ${VAR} reference is not returned.
func credentialValue(s string, start, end int) ([2]int, bool) {
	quote := ""
	switch {
	case start >= 2 && s[start-2:start] == `\"`:
		quote = `\"`
	case start >= 1 && s[start-1] == '"':
		quote = `"`
	}
	p := end
	if quote != "" {
		if !strings.HasPrefix(s[p:], quote) {
			return [2]int{}, false
		}
		p += len(quote)
	}
	p = skipBlanks(s, p)
	if p >= len(s) || s[p] != ':' && (s[p] != '=' || quote != "") {
		return [2]int{}, false
	}
	p = skipBlanks(s, p+1)
	var v0, v1 int
	switch {
	case quote != "":
		if !strings.HasPrefix(s[p:], quote) {
			return [2]int{}, false // a number, object or null: not a credential string
		}
		v0 = p + len(quote)
		v1 = stringEnd(s, v0, quote)
	case p < len(s) && (s[p] == '"' || s[p] == '\''):
		v0 = p + 1
		v1 = stringEnd(s, v0, s[p:p+1])
	default:
		v0, v1 = p, p
		for v1 < len(s) && !strings.ContainsRune(" \t\n\r\f\"',;&", rune(s[v1])) {
			v1++
		}
		if v1-v0 < 4 {
			return [2]int{}, false
		}
	}
	if v1 == v0 || strings.HasPrefix(s[v0:v1], Masked) || strings.HasPrefix(s[v0:v1], "${") {
		return [2]int{}, false // API_KEY=${KEY} names a variable, as Redact shows it
	}
	return [2]int{v0, v1}, true
}

// stringEnd is where a string opened just before from by quote ends: the
// index of its closing quote (a plain " skips backslash escapes), or
// len(s) when s ends first.
func stringEnd(s string, from int, quote string) int {
	if quote == `\"` {
		if i := strings.Index(s[from:], quote); i >= 0 {
			return from + i
		}
		return len(s)
	}
	for i := from; i < len(s); i++ {
		switch s[i] {
		case '\\':
			i++
		case quote[0]:
			return i
		}
	}
	return len(s)
}

func skipBlanks(s string, p int) int {
	for p < len(s) && (s[p] == ' ' || s[p] == '\t') {
		p++
	}
	return p
}
