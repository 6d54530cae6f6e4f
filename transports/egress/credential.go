package egress

import (
	"crypto/rand"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"net/http"
	"net/url"
	"strings"
)

// CredentialEnv is the variable that hands the proxy's credential to the
// shim, "USER:PASSWORD": through the environment, which only the same
// user reads, never through arguments, which every user on the machine
// can list. The shim takes it out of the environment before the server
// starts, and gives it to the server only inside the proxy's URL.
// mcpdeck never passes a variable of this shape on (model.OwnSecretVar).
const CredentialEnv = "MCPDECK_EGRESS_CREDENTIAL"

// proxyUser is the user name of every proxy's credential; the password is
// what is secret.
const proxyUser = "mcpdeck"

// Credential is what a client must present to a proxy: HTTP Basic in
// Proxy-Authorization (as clients send the user information of a proxy
// URL: curl, Python, Node's fetch, Go), or SOCKS5's user name and
// password. Every proxy has its own, random, made when it starts, so
// another user of the machine, who can reach its loopback port, cannot
// use it.
type Credential struct{ User, Password string }

// newCredential makes a random credential.
func newCredential() Credential {
	var b [24]byte
	_, _ = rand.Read(b[:])
	return Credential{User: proxyUser, Password: hex.EncodeToString(b[:])}
}

// String is "USER:PASSWORD", CredentialEnv's form.
func (c Credential) String() string { return c.User + ":" + c.Password }

// ParseCredential reads CredentialEnv's form; ok is false for anything
// without a user and a password.
func ParseCredential(s string) (Credential, bool) {
	user, pass, ok := strings.Cut(s, ":")
	if !ok || user == "" || pass == "" {
		return Credential{}, false
	}
	return Credential{User: user, Password: pass}, true
}

// ProxyURL is the proxy's URL at addr ("127.0.0.1:PORT") with the
// credential as its user information.
func (c Credential) ProxyURL(addr string) string {
	return (&url.URL{Scheme: "http", User: url.UserPassword(c.User, c.Password), Host: addr}).String()
}

// matches reports whether user and pass are c, comparing in constant
// time (digests, so lengths do not leak either).
func (c Credential) matches(user, pass string) bool {
	want := sha256.Sum256([]byte(c.String()))
	got := sha256.Sum256([]byte(user + ":" + pass))
	return c.Password != "" && subtle.ConstantTimeCompare(want[:], got[:]) == 1
}

// allowsHeader reports whether a Proxy-Authorization header value carries
// c as HTTP Basic.
func (c Credential) allowsHeader(h http.Header) bool {
	scheme, enc, ok := strings.Cut(strings.TrimSpace(h.Get("Proxy-Authorization")), " ")
	if !ok || !strings.EqualFold(scheme, "Basic") {
		return false
	}
	dec, err := base64.StdEncoding.DecodeString(strings.TrimSpace(enc))
	if err != nil {
		return false
	}
	user, pass, _ := strings.Cut(string(dec), ":")
	return c.matches(user, pass)
}
