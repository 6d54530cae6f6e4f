package config

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// WritableScopes returns the scopes mcpdeck edits (AddServer, RemoveServer),
// in the order RemoveServer searches when no scope is given.
func WritableScopes() []model.Scope {
	return []model.Scope{model.ScopeLocal, model.ScopeProject, model.ScopeUser}
}

// AddServer writes a new definition to the file of scope (local, user or
// project; project creates .mcp.json at the project root when there is none)
// and returns that file's path. The name must not exist in that file
// (ErrExists); definitions that could never run are refused (ErrInvalid).
func AddServer(opts LoadOptions, scope model.Scope, name string, cfg model.ServerConfig) (string, error) {
	if err := opts.check(); err != nil {
		return "", err
	}
	if err := model.CheckServerName(name); err != nil {
		return "", err
	}
	if err := checkDefinition(name, cfg); err != nil {
		return "", err
	}
	l := discover(opts)
	path, ok := l.scopeFile(scope)
	if !ok {
		return "", fmt.Errorf("%w: cannot add servers to the %s scope (use local, user or project)", model.ErrInvalid, scope)
	}
	err := l.edit(scope, func(f *jsonfile.File) ([]byte, error) {
		if ms := f.Root.Get(jsonfile.ServersKey); ms != nil && ms.Kind != 'z' && ms.Kind != '{' {
			return nil, jsonfile.Unusable("%s: mcpServers is not an object", path)
		}
		if f.Root.Get(jsonfile.ServersKey).Get(name) != nil {
			return nil, fmt.Errorf("%w: server %s is already defined in %s", model.ErrExists, name, path)
		}
		return jsonfile.SetMember(f.Doc, []string{jsonfile.ServersKey, name}, cfg)
	})
	return path, err
}

// RemoveServer deletes a definition from the file of scope and returns that
// path. With scope 0 it looks in local, project and user settings; a name
// defined in several of them is ambiguous (a *SeveralScopesError), one in
// none is ErrNotFound — or ErrInvalid when it comes from a file mcpdeck does
// not edit (plugin, --mcp-config, managed).
func RemoveServer(opts LoadOptions, scope model.Scope, name string) (string, error) {
	if err := opts.check(); err != nil {
		return "", err
	}
	l := discover(opts)
	if scope == 0 {
		var found []model.Scope
		for _, s := range WritableScopes() {
			p, _ := l.scopeFile(s)
			if f, _ := jsonfile.Read(p); f != nil && f.Root.Get(jsonfile.ServersKey).Get(name) != nil {
				found = append(found, s)
			}
		}
		switch len(found) {
		case 0:
			return "", notFoundAnywhere(opts, name)
		case 1:
			scope = found[0]
		default:
			return "", &SeveralScopesError{Name: name, Scopes: found}
		}
	}
	path, ok := l.scopeFile(scope)
	if !ok {
		return "", fmt.Errorf("%w: cannot remove servers from the %s scope (edit local, user or project)", model.ErrInvalid, scope)
	}
	err := l.edit(scope, func(f *jsonfile.File) ([]byte, error) {
		out, found, err := jsonfile.DeleteMember(f.Doc, []string{jsonfile.ServersKey, name})
		if err == nil && !found {
			err = fmt.Errorf("%w: server %s is not defined in the %s scope (%s)", model.ErrNotFound, name, scope, path)
		}
		return out, err
	})
	return path, err
}

// SeveralScopesError is RemoveServer's answer for a name defined in several
// writable scopes when none was named: which scopes, so that the caller can
// offer the command for each. It is an ErrInvalid.
type SeveralScopesError struct {
	Name   string
	Scopes []model.Scope
}

func (e *SeveralScopesError) Error() string {
	names := make([]string, len(e.Scopes))
	for i, s := range e.Scopes {
		names[i] = s.String()
	}
	return fmt.Sprintf("%v: server %s is defined in several scopes (%s); name the scope to remove it from",
		model.ErrInvalid, e.Name, strings.Join(names, ", "))
}

// Unwrap makes errors.Is(err, model.ErrInvalid) true.
func (e *SeveralScopesError) Unwrap() error { return model.ErrInvalid }

// notFoundAnywhere explains a failed removal: absent, or read-only source.
func notFoundAnywhere(opts LoadOptions, name string) error {
	if r, err := Load(opts); err == nil {
		if s, ok := r.Server(name); ok && s.Name == name {
			return fmt.Errorf("%w: server %s comes from the %s scope (%s), which mcpdeck does not edit",
				model.ErrInvalid, name, s.Scope, s.Source)
		}
	}
	return fmt.Errorf("%w: no server named %s in local, project or user settings", model.ErrNotFound, name)
}

// checkDefinition validates a definition before it is written. Values with
// ${VAR} are not checked further than presence: they are resolved at load.
func checkDefinition(name string, cfg model.ServerConfig) error {
	for _, p := range validate(cfg) {
		if p.Field == "url" && strings.Contains(cfg.URL, "${") && cfg.URL != "" {
			continue
		}
		p.Server = name
		return fmt.Errorf("%w: %s", model.ErrInvalid, p.Error())
	}
	return nil
}
