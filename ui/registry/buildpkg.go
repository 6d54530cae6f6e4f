package registry

import (
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// pkg builds the stdio definition that runs the package through its
// runtime: npx -y NAME@VERSION, uvx NAME==VERSION, docker run -i --rm
// IMAGE:TAG, dnx NAME@VERSION --yes. The runtime's arguments come before
// the package, the package's after it; no shell ever reads them.
func (b *builder) pkg() (model.ServerConfig, error) {
	pk := b.plan.Package
	runtimeArgs, err := b.args(pk.RuntimeArguments)
	if err != nil {
		return model.ServerConfig{}, err
	}
	pkgArgs, err := b.args(pk.PackageArguments)
	if err != nil {
		return model.ServerConfig{}, err
	}
	env, envNames, err := b.keyValues(FieldEnv, pk.EnvironmentVariables)
	if err != nil {
		return model.ServerConfig{}, err
	}
	cfg := model.ServerConfig{Type: model.TransportStdio, Command: runtimes[pk.RegistryType], Env: env}
	var args []string
	switch pk.RegistryType {
	case "npm":
		args = append(append([]string{"-y"}, runtimeArgs...), pk.Identifier+"@"+pk.Version)
		args = append(args, pkgArgs...)
	case "pypi":
		args = append(append(runtimeArgs, pk.Identifier+"=="+pk.Version), pkgArgs...)
	case "nuget":
		args = append(append(runtimeArgs, pk.Identifier+"@"+pk.Version, "--yes"), dashDash(pkgArgs)...)
	case "oci":
		// docker passes the container only the variables named with -e;
		// their values come from docker's own environment (cfg.Env).
		args = append([]string{"run", "-i", "--rm"}, runtimeArgs...)
		for _, name := range envNames {
			args = append(args, "-e", name)
		}
		args = append(append(args, image(pk)), pkgArgs...)
	}
	cfg.Args = args
	cfg.Sandbox, err = b.sandbox()
	return cfg, err
}

// dashDash puts "--" before the package's own arguments, if any.
func dashDash(args []string) []string {
	if len(args) == 0 {
		return nil
	}
	return append([]string{"--"}, args...)
}

// image is the pinned OCI reference: the identifier when it carries a tag
// or digest, else identifier:version.
func image(pk *Package) string {
	if _, tag := splitImage(pk.Identifier); tag != "" || hasDigest(pk.Identifier) {
		return pk.Identifier
	}
	return pk.Identifier + ":" + pk.Version
}

// args renders a list of arguments: a positional one as its value, a named
// one as the flag and its value (a boolean flag alone when true); unset
// optional ones are left out.
func (b *builder) args(list []Argument) ([]string, error) {
	var out []string
	for i, a := range list {
		var v piece
		var err error
		if a.Value != "" {
			v, err = b.render("argument "+argName(i, a), a.Value, a.Variables)
		} else {
			v, err = b.value("arg:" + argKey(a))
		}
		if err != nil {
			return nil, err
		}
		switch {
		case !v.set:
		case a.Type == "positional":
			out = append(out, v.text)
		case a.Format == "boolean" && v.text == "true":
			out = append(out, a.Name)
		case a.Format == "boolean":
		default:
			out = append(out, a.Name, v.text)
		}
	}
	return out, nil
}

// hasDigest reports whether an OCI reference pins a digest.
func hasDigest(ref string) bool { return strings.Contains(ref, "@sha256:") }

// argKey is the key an asked-for argument is given under: a named one's
// flag without dashes, a positional one's value hint.
func argKey(a Argument) string {
	if a.Type == "named" {
		return strings.TrimLeft(a.Name, "-")
	}
	return a.ValueHint
}

// argName names argument i for errors: its flag, or its position.
func argName(i int, a Argument) string {
	if a.Type == "named" {
		return a.Name
	}
	return strconv.Itoa(i + 1)
}
