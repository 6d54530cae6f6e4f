package registry

import (
	"fmt"
	"maps"
	"runtime"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// Plan is how one registry server will be installed: the remote or the
// package chosen, and the fields it asks the person for.
type Plan struct {
	Entry   Entry
	Remote  *Remote  // set when the server is reached at a URL
	Package *Package // set when it runs locally
	Bundle  *Bundle  // an mcpb package's bundle, once fetched (Bundles.Fetch)
	Fields  []Field
}

// runtimes are the package types mcpdeck installs and the program that
// runs each.
var runtimes = map[string]string{"npm": "npx", "pypi": "uvx", "oci": "docker", "nuget": "dnx"}

// jsonTransports maps the transports a server.json names (its own words)
// to mcpdeck's.
var jsonTransports = map[string]model.Transport{"stdio": model.TransportStdio, "streamable-http": model.TransportHTTP, "sse": model.TransportSSE}

// remoteType is mcpdeck's transport for a server.json remote; ok is false
// for a remote mcpdeck cannot reach.
func remoteType(r *Remote) (model.Transport, bool) {
	t, ok := jsonTransports[r.Type]
	return t, ok && t.Info().Remote
}

// Offers reports whether a server from the registry can be installed over
// transport t: a remote of that type, or a package run as a program.
func Offers(t model.Transport) bool {
	return slices.Contains(slices.Collect(maps.Values(jsonTransports)), t)
}

// NewPlan chooses how to run e and lists what it asks for. transport picks
// a remote of that mcpdeck type (http, sse) or a package (a transport that
// runs a program, stdio); "" takes the first usable remote, else the first
// package mcpdeck installs, in the server.json's order. Everything taken
// from e is checked (checkText and friends) before it can reach a
// definition.
func NewPlan(e Entry, transport model.Transport) (Plan, error) {
	p := Plan{Entry: e}
	if err := checkText("the server's name", e.Name); err != nil {
		return p, err
	}
	if !transport.Info().Program {
		for i := range e.Remotes {
			r := &e.Remotes[i]
			if t, ok := remoteType(r); ok && (transport == "" || transport == t) {
				p.Remote = r
				return p, p.remoteFields()
			}
		}
		if transport != "" {
			return p, fmt.Errorf("%w: %s has no %s remote (it offers: %s)", ErrUnusable, e.Name, transport, strings.Join(e.Kinds(), ", "))
		}
	}
	var skipped []string
	for i := range e.Packages {
		pk := &e.Packages[i]
		_, ok := runtimes[pk.RegistryType]
		if pk.RegistryType == "mcpb" {
			ok = !forAnotherSystem(pk.Identifier, nodePlatform(runtime.GOOS)) || !laterBundleFits(e.Packages[i+1:])
		}
		if ok {
			p.Package = pk
			return p, p.packageFields()
		}
		skipped = append(skipped, pk.RegistryType)
	}
	if len(skipped) > 0 {
		return p, fmt.Errorf("%w: %s comes only as a %s package; mcpdeck installs npm, pypi, oci, nuget and mcpb packages and remotes", ErrUnusable, e.Name, strings.Join(skipped, ", "))
	}
	return p, fmt.Errorf("%w: %s lists neither a package nor a remote", ErrUnusable, e.Name)
}

// laterBundleFits reports whether one of pkgs is an mcpb package whose
// file name does not say it is for another system.
func laterBundleFits(pkgs []Package) bool {
	return slices.ContainsFunc(pkgs, func(pk Package) bool {
		return pk.RegistryType == "mcpb" && !forAnotherSystem(pk.Identifier, nodePlatform(runtime.GOOS))
	})
}

// remoteFields checks the remote and lists its URL variables and headers.
func (p *Plan) remoteFields() error {
	r := p.Remote
	if err := checkText("the remote's URL", r.URL); err != nil {
		return err
	}
	if r.URL == "" {
		return fmt.Errorf("%w: the %s remote of %s has no URL", ErrUnusable, r.Type, p.Entry.Name)
	}
	if err := checkInput("the remote's URL", Input{Variables: r.Variables}); err != nil {
		return err
	}
	p.addVariables(r.URL, r.Variables)
	for i := range p.Fields { // a URL with a hole in it reaches nothing: its variables are required
		p.Fields[i].Input.IsRequired = true
	}
	return p.keyValues(FieldHeader, r.Headers)
}

// packageFields checks the package and lists its arguments' and
// environment variables' fields.
func (p *Plan) packageFields() error {
	pk := p.Package
	what := pk.RegistryType + " package " + pk.Identifier
	if pk.RegistryType == "mcpb" {
		if err := p.checkBundlePackage(); err != nil {
			return err
		}
	} else if err := p.checkRunnablePackage(what); err != nil {
		return err
	}
	if t := pk.Transport.Type; t != "" && !jsonTransports[t].Info().Program {
		return fmt.Errorf("%w: the %s serves %s on a port of its own; mcpdeck starts local servers over stdio only", ErrUnusable, what, t)
	}
	if len(pk.RuntimeArguments)+len(pk.PackageArguments) > maxFields {
		return fmt.Errorf("%w: the %s has more than %d arguments", ErrUnusable, what, maxFields)
	}
	for _, args := range [][]Argument{pk.RuntimeArguments, pk.PackageArguments} {
		for i, a := range args {
			if err := p.argument(i, a); err != nil {
				return err
			}
		}
	}
	if err := p.keyValues(FieldEnv, pk.EnvironmentVariables); err != nil {
		return err
	}
	p.addSandboxField()
	return nil
}

// checkRunnablePackage checks a package its registry's runtime runs: its
// name, a pinned version, and runtime arguments meant for that runtime.
func (p *Plan) checkRunnablePackage(what string) error {
	pk := p.Package
	if err := checkIdentifier(pk.RegistryType, pk.Identifier); err != nil {
		return err
	}
	if err := p.checkPackageVersion(what); err != nil {
		return err
	}
	run := runtimes[pk.RegistryType]
	if h := pk.RuntimeHint; h != "" && h != run && len(pk.RuntimeArguments) > 0 {
		return fmt.Errorf("%w: the %s is meant to run with %s; mcpdeck runs %s packages with %s and would pass %s's arguments to it", ErrUnusable, what, h, pk.RegistryType, run, h)
	}
	return nil
}

// checkPackageVersion refuses a package that is not pinned. An OCI image
// may carry its tag or digest in its identifier instead.
func (p *Plan) checkPackageVersion(what string) error {
	pk := p.Package
	if pk.RegistryType != "oci" {
		return checkVersion("the "+what, pk.Version)
	}
	_, tag := splitImage(pk.Identifier)
	switch {
	case hasDigest(pk.Identifier):
		return nil
	case tag != "":
		return checkVersion("the "+what, tag)
	}
	return checkVersion("the "+what, pk.Version)
}

// splitImage cuts an OCI reference's tag off ("ghcr.io/a/b:1.0" → "ghcr.io/a/b", "1.0").
func splitImage(ref string) (name, tag string) {
	ref, _, _ = strings.Cut(ref, "@")
	slash := strings.LastIndexByte(ref, '/')
	if i := strings.LastIndexByte(ref, ':'); i > slash {
		return ref[:i], ref[i+1:]
	}
	return ref, ""
}

// argument adds the fields of one argument: its variables when its value
// is fixed, else itself.
func (p *Plan) argument(i int, a Argument) error {
	what := "argument " + argName(i, a)
	switch a.Type {
	case "named":
		if !flagName.MatchString(a.Name) {
			return fmt.Errorf("%w: argument %d is named %q, not a --flag", ErrUnusable, i+1, a.Name)
		}
	case "positional":
		if a.ValueHint != "" && !envKey.MatchString(strings.ReplaceAll(a.ValueHint, "-", "_")) {
			return fmt.Errorf("%w: %s has the value hint %q", ErrUnusable, what, a.ValueHint)
		}
	default:
		return fmt.Errorf("%w: %s has the type %q (positional or named)", ErrUnusable, what, a.Type)
	}
	if err := checkInput(what, a.Input); err != nil {
		return err
	}
	if a.Value != "" {
		p.addVariables(a.Value, a.Variables)
		return nil
	}
	key := argKey(a)
	if key == "" {
		return fmt.Errorf("%w: positional %s has neither a value nor a value hint", ErrUnusable, what)
	}
	p.add(Field{ID: "arg:" + key, Kind: FieldArg, Key: key, Input: a.Input})
	return nil
}

// keyValues adds environment variables or headers.
func (p *Plan) keyValues(kind FieldKind, kvs []KeyValueInput) error {
	if len(kvs) > maxFields {
		return fmt.Errorf("%w: %s lists more than %d of them", ErrUnusable, p.Entry.Name, maxFields)
	}
	for _, kv := range kvs {
		f := Field{Kind: kind, Key: kv.Name, Input: kv.Input}
		valid := envKey.MatchString(kv.Name)
		if kind == FieldHeader {
			valid = headerKey.MatchString(kv.Name)
		}
		if !valid || len(kv.Name) > 256 {
			return fmt.Errorf("%w: %s is not a valid name for %s", ErrUnusable, fmt.Sprintf("%q", kv.Name), strings.TrimSuffix(f.Label(), " "+kv.Name))
		}
		if err := checkInput(f.Label(), kv.Input); err != nil {
			return err
		}
		if kv.Value != "" {
			p.addVariables(kv.Value, kv.Variables)
			continue
		}
		f.ID = map[FieldKind]string{FieldEnv: "env:", FieldHeader: "header:"}[kind] + kv.Name
		p.add(f)
	}
	return nil
}

// addVariables adds a field for each {name} of a fixed value that its
// variables define; other braces stay as written.
func (p *Plan) addVariables(value string, vars map[string]Input) {
	for _, name := range slices.Sorted(maps.Keys(vars)) {
		if strings.Contains(value, "{"+name+"}") {
			p.add(Field{ID: "var:" + name, Kind: FieldVariable, Key: name, Input: vars[name]})
		}
	}
}

// add appends f unless a field of the same ID is already asked for (two
// arguments sharing a variable get one answer).
func (p *Plan) add(f Field) {
	for _, g := range p.Fields {
		if g.ID == f.ID {
			return
		}
	}
	p.Fields = append(p.Fields, f)
}

// Runs says in a few words what the plan runs or reaches, before any field
// is filled: "npx @x/y@1.0.0 (npm package)", "http https://host/mcp".
func (p Plan) Runs() string {
	if r := p.Remote; r != nil {
		t, _ := remoteType(r)
		return string(t) + " " + r.URL
	}
	pk := p.Package
	if pk.RegistryType == "mcpb" {
		return "the MCP bundle " + pk.Identifier + " (mcpb, SHA-256 " + strings.ToLower(pk.FileSHA256[:min(12, len(pk.FileSHA256))]) + "…)"
	}
	pinned := pk.Identifier + "@" + pk.Version
	switch pk.RegistryType {
	case "pypi":
		pinned = pk.Identifier + "==" + pk.Version
	case "oci":
		pinned = image(pk)
	}
	return runtimes[pk.RegistryType] + " " + pinned + " (" + pk.RegistryType + " package)"
}
