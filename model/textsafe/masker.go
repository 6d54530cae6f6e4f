package textsafe

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/url"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Masker is the one way mcpdeck masks secrets in what it shows or writes:
// error sentences, a server's stderr and log messages, recorded traffic,
// listings, doctor's report, a support bundle. It is built once for a
// secret set (Server.Secrets of a server, Resolved.Secrets of a run, plus
// stored credentials where a bundle needs them) and used for many texts.
// A nil *Masker masks the patterns alone (no known secrets).
type Masker struct {
	secrets []string // worth masking, as given and in the forms URLs and JSON give them, longest first
	longest int
}

// minSecretLen is the shortest value a Masker replaces wherever it
// appears: a shorter value ("1", "true", "dev", a port such as "8080") is
// ordinary text far more often than it is a credential, and masking it
// would garble every sentence holding it.
const minSecretLen = 6

// maxNumberLen is the length from which a number is masked: a value made
// only of digits, "." and ":" (a port, a version, a count, an IPv4
// address, a time) shorter than this is ordinary text, not a secret.
const maxNumberLen = 16

// WorthMasking reports whether v, a value of a secret set, is masked
// wherever it appears: at least minSecretLen bytes, and not a short number.
func WorthMasking(v string) bool {
	if len(v) < minSecretLen || v == Masked {
		return false
	}
	if len(v) >= maxNumberLen {
		return true
	}
	return strings.ContainsFunc(v, func(r rune) bool { return (r < '0' || r > '9') && r != '.' && r != ':' })
}

// NewMasker returns the Masker of secrets: each value WorthMasking
// passes, also as a URL's query or path and as a JSON string would
// escape it.
func NewMasker(secrets ...string) *Masker {
	var keep []string
	seen := map[string]bool{}
	for _, v := range secrets {
		if !WorthMasking(v) {
			continue
		}
		for _, f := range secretForms(v) {
			if !seen[f] {
				seen[f] = true
				keep = append(keep, f)
			}
		}
	}
	m := &Masker{secrets: longestFirst(keep)}
	if len(m.secrets) > 0 {
		m.longest = len(m.secrets[0])
	}
	return m
}

// Mask returns s with every secret of the set and every credential the
// patterns recognise replaced by Masked (Dump).
func (m *Masker) Mask(s string) string {
	out, _ := m.Dump(s)
	return out
}

// MaskLines is Mask of each line, in a new slice.
func (m *Masker) MaskLines(lines []string) []string {
	if lines == nil {
		return nil
	}
	out := make([]string, len(lines))
	for i, l := range lines {
		out[i] = m.Mask(l)
	}
	return out
}

// Dump returns s with masked: every secret of the set (in every form it
// was given), URL credentials (user info, secret-looking query values),
// Bearer/Basic credentials, JSON Web Tokens, and the values of JSON
// members and name=value pairs whose names are credentials
// ("access_token": "…", API_KEY=…), and how many values it masked.
func (m *Masker) Dump(s string) (string, int) {
	if s == "" {
		return s, 0
	}
	var secrets []string
	if m != nil {
		secrets = m.secrets
	}
	before := strings.Count(s, Masked)
	s = maskCredentials(redactText(s, secrets))
	return s, max(0, strings.Count(s, Masked)-before)
}

// Longest is the length of the longest text the Masker replaces as a
// known secret (0 for none): a reader that masks a window of a longer
// text reads this much more, so no secret is cut at its end.
func (m *Masker) Longest() int {
	if m == nil {
		return 0
	}
	return m.longest
}

// secretForms is v and the forms it takes elsewhere, when they differ, so
// that a secret a server echoes or names in a URL is found however it was
// encoded: in a URL's query ("a b" is "a+b") or path ("a/b" is "a%2Fb"),
// percent-encoded as JavaScript's encodeURIComponent and Python's quote do
// (space as %20, !'()* kept or escaped, and each with lower-case hex),
// inside a JSON string (Go's encoder, with and without HTML escapes, "/"
// as "\/" as PHP writes it, and every non-ASCII character as \u00e9 as
// Python writes it), and in base64 (standard and URL alphabets, with and
// without padding).
func secretForms(v string) []string {
	query := url.QueryEscape(v)
	strict := strings.ReplaceAll(query, "+", "%20")
	uriComponent := strings.NewReplacer("%21", "!", "%27", "'", "%28", "(", "%29", ")", "%2A", "*").Replace(strict)
	out := []string{v, query, url.PathEscape(v), strict, uriComponent}
	for _, f := range out[1:] {
		out = append(out, lowerHex(f))
	}
	for _, html := range []bool{false, true} {
		var b bytes.Buffer
		enc := json.NewEncoder(&b)
		enc.SetEscapeHTML(html)
		if enc.Encode(v) != nil {
			continue
		}
		e := strings.TrimSuffix(b.String(), "\n")
		e = e[1 : len(e)-1]
		out = append(out, e, strings.ReplaceAll(e, "/", `\/`), asciiJSON(e))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		out = append(out, enc.EncodeToString([]byte(v)))
	}
	return out
}

// lowerHex is a percent-encoded s with its hex digits in lower case
// ("%2F" is "%2f").
func lowerHex(s string) string {
	if !strings.Contains(s, "%") {
		return s
	}
	b := []byte(s)
	for i := 0; i+2 < len(b); i++ {
		if b[i] == '%' {
			for j := i + 1; j <= i+2; j++ {
				if b[j] >= 'A' && b[j] <= 'F' {
					b[j] += 'a' - 'A'
				}
			}
			i += 2
		}
	}
	return string(b)
}

// asciiJSON is the inside of a JSON string with every non-ASCII character
// written as a \u escape (lower-case hex, a surrogate pair beyond the
// BMP), as Python's json.dumps writes it.
func asciiJSON(e string) string {
	var b strings.Builder
	for _, r := range e {
		switch {
		case r < utf8.RuneSelf:
			b.WriteRune(r)
		case r > 0xFFFF:
			r1, r2 := utf16.EncodeRune(r)
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}
