package config

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
)

// AllowSandboxHost adds host to the network list of the sandbox of the
// server name defined in scope, and returns the file it wrote: only the
// person's own files, user or local settings, never the project's shared
// .mcp.json (a repository's definition is changed by its repository, and
// a changed one asks for approval again). The server's other fields stay
// as written; a sandbox whose network is "all" already reaches the host.
func AllowSandboxHost(opts LoadOptions, scope model.Scope, name, host string) (string, error) {
	if err := opts.check(); err != nil {
		return "", err
	}
	if msg := model.CheckSandboxHost(host); msg != "" {
		return "", fmt.Errorf("%w: %s", model.ErrInvalid, msg)
	}
	if scope != model.ScopeUser && scope != model.ScopeLocal {
		return "", fmt.Errorf("%w: server %s is defined in the %s scope; mcpdeck adds hosts only to your user or local settings (add %s to its sandbox's network list there yourself)",
			model.ErrInvalid, name, scope, host)
	}
	l := discover(opts)
	path, _ := l.scopeFile(scope)
	err := l.edit(scope, func(f *jsonfile.File) ([]byte, error) {
		n := f.Root.Get(jsonfile.ServersKey).Get(name)
		if n == nil {
			return nil, fmt.Errorf("%w: server %s is not defined in the %s scope (%s)", model.ErrNotFound, name, scope, path)
		}
		cfg, ferr := model.DecodeServerConfig(jsondoc.Decoder{Doc: f.Doc}, n, "")
		if ferr != nil {
			return nil, fmt.Errorf("%w: server %s: %s", model.ErrInvalid, name, ferr.Error())
		}
		if cfg.Sandbox == nil {
			return nil, fmt.Errorf("%w: server %s runs without a sandbox: it already reaches every host", model.ErrInvalid, name)
		}
		box := *cfg.Sandbox
		box.Network = box.Network.AddHost(host)
		return jsonfile.SetMember(f.Doc, []string{jsonfile.ServersKey, name, "sandbox"}, box)
	})
	return path, err
}
