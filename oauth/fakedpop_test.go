package oauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"net/http"
	"strings"
)

// dpopClaims are the claims of a DPoP proof the fake checks.
type dpopClaims struct {
	HTM   string `json:"htm"`
	HTU   string `json:"htu"`
	IAT   *int64 `json:"iat"`
	JTI   string `json:"jti"`
	ATH   string `json:"ath"`
	Nonce string `json:"nonce"`
}

// verifyDPoP checks a proof as a strict server does: header, ES256
// signature by the embedded public key (raw r||s), htm, htu, a jti never
// seen before, and ath when a token is presented. It returns the key's
// RFC 7638 thumbprint and the claims.
func (f *fakeAS) verifyDPoP(proof, method, htu, accessToken string) (string, dpopClaims, error) {
	var c dpopClaims
	parts := strings.Split(proof, ".")
	if len(parts) != 3 {
		return "", c, errors.New("not a compact JWS")
	}
	enc := base64.RawURLEncoding
	hb, err1 := enc.DecodeString(parts[0])
	cb, err2 := enc.DecodeString(parts[1])
	sig, err3 := enc.DecodeString(parts[2])
	if err := errors.Join(err1, err2, err3); err != nil {
		return "", c, err
	}
	var h struct {
		Typ string            `json:"typ"`
		Alg string            `json:"alg"`
		JWK map[string]string `json:"jwk"`
	}
	if err := json.Unmarshal(hb, &h); err != nil {
		return "", c, err
	}
	if h.Typ != "dpop+jwt" || h.Alg != "ES256" || h.JWK["kty"] != "EC" || h.JWK["crv"] != "P-256" || h.JWK["d"] != "" {
		return "", c, fmt.Errorf("bad header %s", hb)
	}
	x, _ := enc.DecodeString(h.JWK["x"])
	y, _ := enc.DecodeString(h.JWK["y"])
	pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
	if err != nil {
		return "", c, fmt.Errorf("jwk: %w", err)
	}
	sum := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
	if len(sig) != 64 || !ecdsa.Verify(pub, sum[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
		return "", c, errors.New("signature does not verify")
	}
	if err := json.Unmarshal(cb, &c); err != nil {
		return "", c, err
	}
	if c.HTM != method || c.HTU != htu || c.IAT == nil || c.JTI == "" {
		return "", c, fmt.Errorf("claims %s do not fit %s %s", cb, method, htu)
	}
	if f.jtis == nil {
		f.jtis = map[string]bool{}
	}
	if f.jtis[c.JTI] {
		return "", c, errors.New("replayed jti")
	}
	f.jtis[c.JTI] = true
	if accessToken != "" {
		ath := sha256.Sum256([]byte(accessToken))
		if c.ATH != enc.EncodeToString(ath[:]) {
			return "", c, errors.New("ath does not match the token")
		}
	}
	thumb := sha256.Sum256(fmt.Appendf(nil, `{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}`, h.JWK["x"], h.JWK["y"]))
	return enc.EncodeToString(thumb[:]), c, nil
}

// tokenDPoP checks the proof of a token request and answers a refusal
// itself; it returns the key thumbprint the token is to be bound to.
func (f *fakeAS) tokenDPoP(w http.ResponseWriter, r *http.Request) (string, bool) {
	jkt, c, err := f.verifyDPoP(r.Header.Get("DPoP"), http.MethodPost, f.as.URL+"/token", "")
	if err != nil {
		f.DPoPErrors = append(f.DPoPErrors, "token: "+err.Error())
		oauthErr(w, 400, "invalid_dpop_proof")
		return "", false
	}
	if f.DPoPNonce != "" && c.Nonce != f.DPoPNonce {
		f.NonceRefusals["as"]++
		w.Header().Set("DPoP-Nonce", f.DPoPNonce)
		oauthErr(w, 400, "use_dpop_nonce")
		return "", false
	}
	return jkt, true
}

// resourceDPoP checks the proof that comes with a DPoP-bound token at the
// resource and answers a refusal itself.
func (f *fakeAS) resourceDPoP(w http.ResponseWriter, r *http.Request, tok string, g fakeGrant) bool {
	jkt, c, err := f.verifyDPoP(r.Header.Get("DPoP"), r.Method, f.rs.URL+"/mcp", tok)
	if err == nil && jkt != g.jkt {
		err = errors.New("proof key is not the key the token is bound to")
	}
	if err != nil {
		f.DPoPErrors = append(f.DPoPErrors, "resource: "+err.Error())
		w.Header().Set("WWW-Authenticate", `DPoP error="invalid_dpop_proof"`)
		w.WriteHeader(401)
		return false
	}
	if f.DPoPNonce != "" && c.Nonce != f.DPoPNonce {
		f.NonceRefusals["rs"]++
		w.Header().Set("WWW-Authenticate", `DPoP error="use_dpop_nonce"`)
		w.Header().Set("DPoP-Nonce", f.DPoPNonce)
		if f.RotateNonce {
			f.DPoPNonce = randomID()
		}
		w.WriteHeader(401)
		return false
	}
	return true
}
