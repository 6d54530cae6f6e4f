package oauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/sha512"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"hash"
)

// errBadKey never includes key material.
var errBadKey = errors.New("the private key is not a PEM PKCS#8, SEC1 EC or PKCS#1 RSA key")

// parsePrivateKey reads a PEM private key.
func parsePrivateKey(pemData string) (crypto.Signer, error) {
	block, _ := pem.Decode([]byte(pemData))
	if block == nil {
		return nil, errBadKey
	}
	if k, err := x509.ParsePKCS8PrivateKey(block.Bytes); err == nil {
		if s, ok := k.(crypto.Signer); ok {
			return s, nil
		}
		return nil, errBadKey
	}
	if k, err := x509.ParseECPrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	if k, err := x509.ParsePKCS1PrivateKey(block.Bytes); err == nil {
		return k, nil
	}
	return nil, errBadKey
}

// keyAlg picks the JWS algorithm for a key, honouring want when it fits.
func keyAlg(key crypto.Signer, want string) (string, error) {
	var def string
	var ok func(string) bool
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		switch k.Curve {
		case elliptic.P256():
			def = "ES256"
		case elliptic.P384():
			def = "ES384"
		case elliptic.P521():
			def = "ES512"
		default:
			return "", errBadKey
		}
		ok = func(a string) bool { return a == def }
	case *rsa.PrivateKey:
		def = "RS256"
		ok = func(a string) bool { return a == "RS256" || a == "RS384" || a == "RS512" }
	default:
		return "", fmt.Errorf("%w: unsupported key type %T", ErrConfig, key)
	}
	if want == "" {
		return def, nil
	}
	if !ok(want) {
		return "", fmt.Errorf("%w: signing algorithm %s does not fit the key (use %s)", ErrConfig, want, def)
	}
	return want, nil
}

func algHash(alg string) (crypto.Hash, func() hash.Hash) {
	switch alg[2:] {
	case "384":
		return crypto.SHA384, sha512.New384
	case "512":
		return crypto.SHA512, sha512.New
	default:
		return crypto.SHA256, sha256.New
	}
}

// signJWT builds a compact JWS with the given header fields and claims.
func signJWT(key crypto.Signer, alg string, header, claims map[string]any) (string, error) {
	h := map[string]any{"alg": alg, "typ": "JWT"}
	for k, v := range header {
		h[k] = v
	}
	hb, err := json.Marshal(h)
	if err != nil {
		return "", err
	}
	cb, err := json.Marshal(claims)
	if err != nil {
		return "", err
	}
	enc := base64.RawURLEncoding
	signing := enc.EncodeToString(hb) + "." + enc.EncodeToString(cb)
	ch, newHash := algHash(alg)
	hh := newHash()
	hh.Write([]byte(signing))
	digest := hh.Sum(nil)
	var sig []byte
	switch k := key.(type) {
	case *ecdsa.PrivateKey:
		r, s, err := ecdsa.Sign(rand.Reader, k, digest)
		if err != nil {
			return "", err
		}
		size := (k.Curve.Params().BitSize + 7) / 8
		sig = make([]byte, 2*size)
		r.FillBytes(sig[:size])
		s.FillBytes(sig[size:])
	case *rsa.PrivateKey:
		sig, err = rsa.SignPKCS1v15(rand.Reader, k, ch, digest)
		if err != nil {
			return "", err
		}
	default:
		return "", errBadKey
	}
	return signing + "." + enc.EncodeToString(sig), nil
}
