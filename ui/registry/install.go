package registry

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// SecretWriter is the part of mcpdeck's secret store an install needs
// (oauth.SecretStore in the program, a map in tests).
type SecretWriter interface {
	Set(ctx context.Context, ref config.SecretRef, value string) error
	Delete(ctx context.Context, ref config.SecretRef) error
}

// Install writes the definition cfg of server name to the file of scope
// and stores its secrets, bound to that scope, file and server (each
// becomes the ${secret:NAME} cfg refers to). The definition is written
// first, so that an existing server of that name is refused before any of
// its secrets could be overwritten; if a secret cannot be stored, the
// definition and the secrets stored so far are taken back. It returns the
// file written.
func Install(ctx context.Context, opts config.LoadOptions, scope model.Scope, name string, cfg model.ServerConfig, secrets []Secret, store SecretWriter) (string, error) {
	if len(secrets) > 0 && !scope.MayUseSecrets() {
		return "", fmt.Errorf("%w: the %s scope cannot use mcpdeck's secret store", ErrSecretInSharedFile, scope)
	}
	if len(secrets) > 0 && store == nil {
		return "", errors.New("no secret store to keep the server's secrets in")
	}
	path, err := config.AddServer(opts, scope, name, cfg)
	if err != nil {
		return "", err
	}
	var stored []config.SecretRef
	for _, s := range secrets {
		ref := config.SecretRef{Scope: scope, File: path, Server: name, Name: s.Name}
		if err := store.Set(ctx, ref, s.Value); err != nil {
			for _, r := range stored {
				_ = store.Delete(ctx, r)
			}
			_, rmErr := config.RemoveServer(opts, scope, name)
			err = fmt.Errorf("storing the secret %s (%s) of server %s: %w", s.Name, s.Field, name, err)
			if rmErr != nil {
				return "", fmt.Errorf("%w; and taking the definition back out of %s failed: %w", err, path, rmErr)
			}
			return "", fmt.Errorf("%w (nothing was added)", err)
		}
		stored = append(stored, ref)
	}
	return path, nil
}

// InstallBundle is Install for a plan with an MCP bundle (bd; nil for
// none): the bundle is unpacked first (Bundle.Unpack, which keeps a
// directory already holding it), so that the definition never names a
// directory that is not there; if Install fails, a directory this call
// made is removed again.
func InstallBundle(ctx context.Context, opts config.LoadOptions, scope model.Scope, name string, cfg model.ServerConfig, secrets []Secret, store SecretWriter, bd *Bundle) (string, error) {
	if bd == nil {
		return Install(ctx, opts, scope, name, cfg, secrets, store)
	}
	created, err := bd.Unpack()
	if err != nil {
		return "", err
	}
	path, err := Install(ctx, opts, scope, name, cfg, secrets, store)
	if err != nil && created {
		if rmErr := bd.Remove(); rmErr != nil {
			return "", fmt.Errorf("%w; and removing the bundle's directory %s failed: %w", err, bd.Dir, rmErr)
		}
	}
	return path, err
}

// LocalName is the server name a registry server gets by default: the
// part after its namespace, kept to letters, digits, _ and -
// ("io.github.github/github-mcp-server" → "github-mcp-server").
func LocalName(registryName string) string {
	if i := strings.LastIndexByte(registryName, '/'); i >= 0 {
		registryName = registryName[i+1:]
	}
	var b strings.Builder
	for _, r := range registryName {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.Trim(b.String(), "-")
	if s == "" || len(s) > 64 {
		s = strings.Trim(s[:min(len(s), 64)], "-")
	}
	if s == "" {
		return "server"
	}
	return s
}

// Pinned fetches server name at version, or at the registry's latest
// version when version is "" — and refuses an answer that is not the
// concrete version asked for, so that what gets installed is always a
// release the person could name again.
func (c Client) Pinned(ctx context.Context, name, version string) (Entry, error) {
	e, err := c.Show(ctx, name, version)
	if err != nil {
		return e, err
	}
	if e.Name != name {
		return e, fmt.Errorf("%w: the registry answered with %q for %s", ErrUnusable, e.Name, name)
	}
	if err := checkVersion("server "+name, e.Version); err != nil {
		return e, err
	}
	if version != "" && e.Version != version {
		return e, fmt.Errorf("%w: the registry answered version %s for %s@%s", ErrUnusable, e.Version, name, version)
	}
	return e, nil
}
