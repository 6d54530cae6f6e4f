package registry

import (
	"github.com/mcpdeck/mcpdeck/model"
)

// SandboxFieldID is the plan field that offers the sandbox to npm and
// PyPI packages: "default" (pre-selected) or "none".
const SandboxFieldID = "sandbox"

// sandboxNone is the sandbox field's answer that opts out.
const sandboxNone = "none"

// registryHosts are the hosts a package runner must reach in its sandbox:
// npx and uvx fetch the pinned package there at every start (the
// sandbox's caches are private and go with it).
func registryHosts(registryType string) []string {
	switch registryType {
	case "npm":
		return []string{"registry.npmjs.org"}
	case "pypi":
		return []string{"pypi.org", "files.pythonhosted.org"}
	}
	return nil
}

// addSandboxField offers the default sandbox, pre-selected, to a package
// npx or uvx runs: a package fetched from a registry is code nobody here
// has read.
func (p *Plan) addSandboxField() {
	hosts := registryHosts(p.Package.RegistryType)
	if hosts == nil {
		return
	}
	p.add(Field{ID: SandboxFieldID, Kind: FieldSandbox, Key: SandboxFieldID, Input: Input{
		Description: "run it in mcpdeck's sandbox: it reads the system, its package and the project, writes a private /tmp, and reaches only " +
			model.SandboxNetwork{Hosts: hosts}.String() + " (none: runs as your account)",
		Choices: []string{model.SandboxProfileDefault, sandboxNone},
		Default: model.SandboxProfileDefault,
	}})
}

// sandbox is the sandbox the plan's field asks for, nil for none.
func (b *builder) sandbox() (*model.Sandbox, error) {
	if _, ok := b.fieldByID(SandboxFieldID); !ok {
		return nil, nil
	}
	v, err := b.value(SandboxFieldID)
	if err != nil || v.text == sandboxNone {
		return nil, err
	}
	return &model.Sandbox{Profile: model.SandboxProfileDefault, Network: model.SandboxNetwork{Hosts: registryHosts(b.plan.Package.RegistryType)}}, nil
}
