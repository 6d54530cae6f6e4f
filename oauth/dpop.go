package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/model/lock"
)

// dpopAlg is the one DPoP proof algorithm mcpdeck signs with.
const dpopAlg = "ES256"

// wantsDPoP reports whether the authorization server asks for DPoP-bound
// tokens with an algorithm we sign with.
func wantsDPoP(md asMetadata) bool {
	return slices.Contains(md.DPoPSigningAlgValuesSupported, dpopAlg)
}

// newDPoPKey makes a fresh P-256 key and its PEM (SEC1) form, which is
// stored with the server's tokens and never shown.
func newDPoPKey() (*ecdsa.PrivateKey, string, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, "", fmt.Errorf("making a DPoP key: %w", err)
	}
	der, err := x509.MarshalECPrivateKey(k)
	if err != nil {
		return nil, "", fmt.Errorf("encoding the DPoP key: %w", err)
	}
	return k, string(pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der})), nil
}

// dpopKeyOf reads the DPoP key of a token record; nil when it has none.
func dpopKeyOf(rec *tokenRecord) *ecdsa.PrivateKey {
	if rec == nil || rec.DPoPKey == "" {
		return nil
	}
	s, err := parsePrivateKey(rec.DPoPKey)
	if err != nil {
		return nil
	}
	k, ok := s.(*ecdsa.PrivateKey)
	if !ok || k.Curve != elliptic.P256() {
		return nil
	}
	return k
}

// dpopProof signs a proof for one request: method and URL (without query
// and fragment), the access token's hash when one is presented, and the
// server's latest nonce when it gave one.
func dpopProof(key *ecdsa.PrivateKey, method string, u *url.URL, accessToken, nonce string, now time.Time) (string, error) {
	pub, err := key.PublicKey.ECDH()
	if err != nil {
		return "", fmt.Errorf("DPoP key: %w", err)
	}
	raw := pub.Bytes() // 0x04 || X || Y
	enc := base64.RawURLEncoding
	jwk := map[string]string{"kty": "EC", "crv": "P-256", "x": enc.EncodeToString(raw[1:33]), "y": enc.EncodeToString(raw[33:])}
	htu := *u
	htu.RawQuery, htu.ForceQuery, htu.Fragment, htu.RawFragment, htu.User = "", false, "", "", nil
	claims := map[string]any{"htm": method, "htu": htu.String(), "iat": now.Unix(), "jti": randomID()}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = enc.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	return signJWT(key, dpopAlg, map[string]any{"typ": "dpop+jwt", "jwk": jwk}, claims)
}

// dpopNonces remembers the latest DPoP-Nonce each origin handed out.
type dpopNonces struct {
	by lock.Map[string, string]
}

func (n *dpopNonces) get(u *url.URL) string { return n.by.Get(portOrigin(u)) }

// note keeps the nonce of a response, if it carries one.
func (n *dpopNonces) note(u *url.URL, h http.Header) bool {
	v := strings.TrimSpace(h.Get("DPoP-Nonce"))
	if v == "" {
		return false
	}
	n.by.Update(portOrigin(u), func(nonce *string) { *nonce = v })
	return true
}

// resourceWantsNonce reports whether a resource's 401 is a DPoP challenge
// asking for a nonce.
func resourceWantsNonce(resp *http.Response) bool {
	if resp.StatusCode != http.StatusUnauthorized {
		return false
	}
	for _, v := range resp.Header.Values("WWW-Authenticate") {
		if p, ok := schemeParams(v, "DPoP"); ok && p["error"] == "use_dpop_nonce" {
			return true
		}
	}
	return false
}
