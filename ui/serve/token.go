package serve

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/platform"
)

// TokenEnv is the variable that gives `mcpdeck serve --http` its bearer
// token instead of the stored one.
const TokenEnv = "MCPDECK_SERVE_TOKEN"

// tokenFile is where the generated token is kept, in mcpdeck's user config
// directory, readable by the person alone.
const tokenFile = "serve-token"

// minTokenLen is the shortest token accepted from TokenEnv: a guessable one
// would make the token pointless.
const minTokenLen = 16

// Token is the bearer token every HTTP request must carry: TokenEnv when
// set, else the one stored in configDir/serve-token, else a new random one
// stored there (0600). created says it was just made: the caller shows it
// once. Errors name the variable or the file, never the token.
func Token(lookupEnv func(string) (string, bool), configDir string) (tok, path string, created bool, err error) {
	if lookupEnv == nil {
		lookupEnv = os.LookupEnv
	}
	if v, ok := lookupEnv(TokenEnv); ok {
		v = strings.TrimSpace(v)
		if len(v) < minTokenLen {
			return "", "", false, fmt.Errorf("%s is shorter than %d characters: use a long random value (or unset it, and mcpdeck makes one)", TokenEnv, minTokenLen)
		}
		return v, "", false, nil
	}
	path = filepath.Join(configDir, tokenFile)
	tok, err = readToken(path)
	if err == nil {
		return tok, path, false, nil
	}
	if !errors.Is(err, fs.ErrNotExist) {
		return "", path, false, err
	}
	tok, err = newToken(path)
	return tok, path, err == nil, err
}

// readToken reads a stored token, refusing a file others may read.
func readToken(path string) (string, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return "", err
	}
	if !fi.Mode().IsRegular() {
		return "", fmt.Errorf("%s is not a regular file: remove it, and mcpdeck serve makes a new token", path)
	}
	if err := checkPrivate(fi); err != nil {
		return "", fmt.Errorf("%s: %w", path, err)
	}
	b, err := os.ReadFile(path)
	if err != nil {
		return "", fmt.Errorf("reading the serve token: %w", err)
	}
	tok := strings.TrimSpace(string(b))
	if len(tok) < minTokenLen {
		return "", fmt.Errorf("%s holds no usable token: remove it, and mcpdeck serve makes a new one", path)
	}
	return tok, nil
}

// newToken makes 32 random bytes and stores them, base64url, in a new
// 0600 file (platform.CreatePrivate: never through an existing file or link).
func newToken(path string) (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("making a serve token: %w", err)
	}
	tok := base64.RawURLEncoding.EncodeToString(b)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return "", fmt.Errorf("storing the serve token: %w", err)
	}
	f, err := platform.CreatePrivate(path, true)
	if err != nil {
		return "", fmt.Errorf("storing the serve token: %w", err)
	}
	_, err = f.WriteString(tok + "\n")
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		_ = os.Remove(path)
		return "", fmt.Errorf("storing the serve token in %s: %w", path, err)
	}
	return tok, nil
}
