package skillmd

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
)

// Verify checks a file's bytes against the size and digest its skill's
// list entry gives: the size first (cheap, and a mismatch whatever the
// digest), then the sha256 digest. It returns why they differ, "" when
// they match.
func Verify(size int64, digest string, body []byte) string {
	if int64(len(body)) != size {
		return fmt.Sprintf("it is %d bytes but the skill list says %d", len(body), size)
	}
	sum := sha256.Sum256(body)
	if got := "sha256:" + hex.EncodeToString(sum[:]); got != digest {
		return "its content does not match the digest in the skill list (got " + got + ", listed " + digest + ")"
	}
	return ""
}

// ValidDigest accepts "sha256:" and 64 lowercase hex digits.
func ValidDigest(d string) bool {
	h, ok := strings.CutPrefix(d, "sha256:")
	if !ok || len(h) != 64 {
		return false
	}
	_, err := hex.DecodeString(h)
	return err == nil && strings.ToLower(h) == h
}
