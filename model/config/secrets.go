package config

import (
	"errors"
	"fmt"
	"net/url"
	"path/filepath"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ErrSecretNotFound is what a LoadOptions.LookupSecret returns for a secret
// the store does not hold.
var ErrSecretNotFound = errors.New("not in the secret store")

// SkipSecrets is a LoadOptions.LookupSecret that reads nothing
// (ErrSecretUnread).
func SkipSecrets(SecretRef) (string, error) { return "", model.ErrSecretUnread }

// SecretRef names one secret in mcpdeck's store and the definition it
// belongs to. A secret is bound to the scope, file and server it was stored
// for (Key), so a definition elsewhere naming the same NAME reads nothing.
type SecretRef struct {
	Scope  model.Scope
	File   string // the file holding the definition (for local scope it names the project)
	Server string
	Name   string
}

// storeKeyPrefix starts the key of every secret in the store, as a
// reference starts its name.
const storeKeyPrefix = "secret:"

// Key is where the store keeps the secret:
// "secret:user::<server>:<NAME>" or "secret:local:<project file>:<server>:<NAME>",
// with the project file and server query-escaped so that no two references
// share a key and none looks like an OAuth entry (those hold '@' and '/').
func (r SecretRef) Key() string {
	project := ""
	if r.Scope == model.ScopeLocal {
		project = strings.TrimSuffix(filepath.Base(r.File), ".json")
	}
	return storeKeyPrefix + r.Scope.String() + ":" + url.QueryEscape(project) + ":" + url.QueryEscape(r.Server) + ":" + r.Name
}

// SecretNames lists, once each and in order of appearance, the secrets a
// definition as written refers to in any of its string fields, so that a
// removal can offer to delete them.
func SecretNames(raw model.ServerConfig) []string {
	var out []string
	seen := map[string]bool{}
	_, _, _ = raw.Expand(func(string) (string, bool) { return "", true }, func(name string) (string, error) {
		if model.ValidSecretName(name) && !seen[name] {
			seen[name] = true
			out = append(out, name)
		}
		return "", nil
	}, "")
	return out
}

// resolveSecret is the value of one ${secret:NAME} of a definition, or the
// sentence saying why there is none: the name is malformed, the scope may
// not use the store, nothing is stored, or the store failed.
func (o LoadOptions) resolveSecret(ref SecretRef) (string, error) {
	refText := model.SecretReference(ref.Name)
	switch {
	case !model.ValidSecretName(ref.Name):
		return "", fmt.Errorf("%s is not a secret reference mcpdeck understands (NAME: letters, digits and _)", refText)
	case !ref.Scope.MayUseSecrets():
		return "", fmt.Errorf("%s refers to mcpdeck's secret store, which only definitions in your user or local configuration may use, not the %s scope", refText, ref.Scope)
	case o.LookupSecret == nil:
		return "", fmt.Errorf("%s cannot be read: no secret store is available here", refText)
	}
	v, err := o.LookupSecret(ref)
	switch {
	case errors.Is(err, model.ErrSecretUnread):
		return "", err
	case errors.Is(err, ErrSecretNotFound):
		return "", fmt.Errorf("%s is not in mcpdeck's secret store; store it with: mcpdeck mcp secret %s %s -s %s", refText, textsafe.QuoteArg(ref.Server), textsafe.QuoteArg(ref.Name), ref.Scope)
	case err != nil:
		return "", fmt.Errorf("%s could not be read from the secret store: %w", refText, err)
	}
	return v, nil
}

// SecretsOf lists the secrets the definition of name refers to in the file
// of a writable scope (0: the one scope that defines it, as RemoveServer
// finds it), bound to that definition, so that removing the server can
// delete them. A scope that may not use the store has none; a name
// defined in several scopes and none given has none.
func SecretsOf(opts LoadOptions, scope model.Scope, name string) []SecretRef {
	if opts.check() != nil {
		return nil
	}
	l := discover(opts)
	var refs []SecretRef
	defined := 0
	for _, s := range WritableScopes() {
		if scope != 0 && s != scope {
			continue
		}
		path, _ := l.scopeFile(s)
		f, _ := jsonfile.Read(path)
		if f == nil {
			continue
		}
		n := f.Root.Get(jsonfile.ServersKey).Get(name)
		if n == nil {
			continue
		}
		defined++
		cfg, _ := model.DecodeServerConfig(jsondoc.Decoder{Doc: f.Doc}, n, "")
		if !s.MayUseSecrets() {
			continue
		}
		for _, secret := range SecretNames(cfg) {
			refs = append(refs, SecretRef{Scope: s, File: path, Server: name, Name: secret})
		}
	}
	if defined != 1 {
		return nil
	}
	return refs
}
