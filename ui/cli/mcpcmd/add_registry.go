package mcpcmd

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/charmbracelet/huh"
	"github.com/spf13/cobra"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/addserver"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliprompt"
	"github.com/mcpdeck/mcpdeck/ui/cli/registrycmd"
	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// runRegistryAdd is `mcp add [NAME] --registry NAME[@VERSION]`: fetch the
// server.json (the latest version pinned to its number when none is
// given), choose its remote or package, take its fields from -e/-H/--arg
// and, at a terminal, ask for the rest; then show what will be written
// where, ask to confirm (unless --yes) and write it, secrets to the store.
func runRegistryAdd(cmd *cobra.Command, g *clicore.Globals, args []string, f addFlags, scope model.Scope) error {
	if err := checkRegistryAddFlags(cmd, args, f); err != nil {
		return err
	}
	env, err := parseEnv(f.env)
	if err != nil {
		return err
	}
	headers, err := parseHeaders(f.headers)
	if err != nil {
		return err
	}
	argVals, err := parseKeyValues("--arg", f.args)
	if err != nil {
		return err
	}
	opts, err := g.LoadOptions()
	if err != nil {
		return err
	}
	entry, plan, err := registryPlan(cmd.Context(), g, f)
	if err != nil {
		return err
	}
	name := registry.LocalName(entry.Name)
	if len(args) == 1 {
		name = args[0]
	}
	if err := checkNewName(name); err != nil {
		return err
	}
	if plan.NeedsBundle() {
		if plan, err = fetchBundle(cmd.Context(), g, opts, scope, plan); err != nil {
			return err
		}
		defer func() { _ = plan.Bundle.Close() }()
	}
	values, extra, err := givenValues(plan, env, headers, argVals)
	if err != nil {
		return err
	}
	if err := giveSandbox(plan, f.sandbox, values); err != nil {
		return err
	}
	mode := registry.SecretsInStore
	if !scope.MayUseSecrets() {
		mode = registry.SecretsFromEnv
	}
	if cliprompt.OnTerminal(g) {
		if err := askFields(g, plan, values, mode); err != nil {
			return err
		}
	}
	cfg, secrets, err := plan.Build(values, mode)
	switch {
	case errors.Is(err, registry.ErrUnusable):
		return fmt.Errorf("%s@%s %w", textsafe.SanitizeLine(entry.Name), textsafe.SanitizeLine(entry.Version), err)
	case err != nil: // a value given is missing, not allowed or a literal secret for the shared file
		return clierr.Usagef("%s", clierr.Sentence(err))
	}
	extra.apply(&cfg)
	target, err := config.ScopePath(opts, scope)
	if err != nil {
		return err
	}
	describeInstall(g, plan, name, scope, target, cfg, secrets)
	if cliprompt.OnTerminal(g) && !f.yes {
		ok, err := cliprompt.Confirm(g, "Add it?")
		if err != nil {
			return err
		}
		if !ok {
			fmt.Fprintln(g.Stdout, "Nothing was added.")
			return nil
		}
	}
	store := g.SecretStore(opts.ConfigDir)
	path, err := registry.InstallBundle(cmd.Context(), opts, scope, name, cfg, secrets, store, plan.Bundle)
	if err != nil {
		return err
	}
	warnLiteralSecrets(g.Stderr, scope, name, cfg)
	reportAdded(g, opts, scope, name, cfg, path)
	if bd := plan.Bundle; bd != nil && !bd.Reused {
		fmt.Fprintf(g.Stdout, "Unpacked the bundle into %s (mcp remove leaves it there).\n", textsafe.SanitizeLine(bd.Dir))
	}
	if len(secrets) > 0 {
		fmt.Fprintf(g.Stdout, "Stored %s in mcpdeck's secret store, for %s in the %s scope only.\n", registry.SecretNames(secrets), textsafe.SanitizeLine(name), scope)
	}
	if w := store.Warning(); w != "" {
		fmt.Fprintln(g.Stderr, "mcpdeck: "+w)
	}
	return nil
}

// checkRegistryAddFlags refuses what `mcp add --registry` does not take.
func checkRegistryAddFlags(cmd *cobra.Command, args []string, f addFlags) error {
	switch {
	case cmd.ArgsLenAtDash() >= 0 || len(args) > 1:
		return clierr.Usagef("mcp add --registry takes at most the NAME to save the server under, not a URL or a command")
	case f.clientID != "" || f.callbackPort != 0 || f.clientSecret:
		return clierr.Usagef("--client-id, --callback-port and --client-secret are for mcp add NAME URL, not --registry")
	case f.transport != "" && !registry.Offers(model.Transport(f.transport)):
		return clierr.Usagef("registry servers are reached over http or sse, or run over stdio; -t %s does not apply", f.transport)
	}
	return nil
}

// registryPlan finds --registry SERVER[@VERSION] in the MCP Registry,
// pinned, and plans how to run it (-t choosing among its ways).
func registryPlan(ctx context.Context, g *clicore.Globals, f addFlags) (registry.Entry, registry.Plan, error) {
	regName, version, _ := strings.Cut(f.registry, "@")
	entry, err := registrycmd.Fetch(ctx, g, regName, version, registrycmd.Client().Pinned)
	if errors.Is(err, registry.ErrNotFound) {
		return entry, registry.Plan{}, fmt.Errorf("%s is not in the registry (try: mcpdeck registry search %s)", textsafe.SanitizeLine(f.registry), textsafe.SanitizeLine(registrycmd.LastPart(regName)))
	}
	if err != nil {
		return entry, registry.Plan{}, err
	}
	plan, err := registry.NewPlan(entry, model.Transport(f.transport))
	if err != nil {
		return entry, registry.Plan{}, fmt.Errorf("%s@%s %w", textsafe.SanitizeLine(entry.Name), textsafe.SanitizeLine(entry.Version), err)
	}
	return entry, plan, nil
}

// extraValues are -e and -H values the server.json does not ask for: the
// person's own additions, kept as given.
type extraValues struct{ env, headers map[string]string }

func (x extraValues) apply(cfg *model.ServerConfig) {
	if len(x.env) > 0 && cfg.Env == nil {
		cfg.Env = map[string]string{}
	}
	maps.Copy(cfg.Env, x.env)
	if len(x.headers) > 0 && cfg.Headers == nil {
		cfg.Headers = map[string]string{}
	}
	maps.Copy(cfg.Headers, x.headers)
}

// givenValues sorts the command line's -e, -H and --arg values into the
// plan's fields; the rest are additions (env for a package, headers for a
// remote) or, for --arg, a usage error naming what the server asks for.
func givenValues(plan registry.Plan, env, headers, argVals map[string]string) (map[string]string, extraValues, error) {
	values := map[string]string{}
	env, headers, argVals = maps.Clone(env), maps.Clone(headers), maps.Clone(argVals)
	for _, fl := range plan.Fields {
		switch fl.Kind {
		case registry.FieldEnv:
			if v, ok := env[fl.Key]; ok {
				values[fl.ID] = v
				delete(env, fl.Key)
			}
		case registry.FieldHeader:
			for k, v := range headers {
				if strings.EqualFold(k, fl.Key) {
					values[fl.ID] = v
					delete(headers, k)
				}
			}
		case registry.FieldArg, registry.FieldVariable, registry.FieldUserConfig:
			if v, ok := argVals[fl.Key]; ok {
				values[fl.ID] = v
			}
		case registry.FieldSandbox: // --sandbox (giveSandbox)
		}
	}
	for _, fl := range valueFields(plan.Fields) {
		delete(argVals, fl.Key)
	}
	x := extraValues{env: env, headers: headers}
	switch {
	case len(argVals) > 0:
		return nil, x, clierr.Usagef("%s asks for no argument or variable named %s (it asks for: %s)",
			textsafe.SanitizeLine(plan.Entry.Name), strings.Join(slices.Sorted(maps.Keys(argVals)), ", "), fieldList(valueFields(plan.Fields)))
	case plan.Remote != nil && len(env) > 0:
		return nil, x, clierr.Usagef("-e sets environment variables of servers that run locally; %s is reached at a URL (give headers with -H)", textsafe.SanitizeLine(plan.Entry.Name))
	case plan.Package != nil && len(headers) > 0:
		return nil, x, clierr.Usagef("-H sets headers of remote servers; %s runs locally (give environment variables with -e)", textsafe.SanitizeLine(plan.Entry.Name))
	}
	return values, x, nil
}

// valueFields are the fields -e, -H and --arg give and a terminal asks
// for: all but the sandbox, which is on unless --sandbox=none, as the plan
// shown before "Add it?" says.
func valueFields(fields []registry.Field) []registry.Field {
	return slices.DeleteFunc(slices.Clone(fields), func(f registry.Field) bool { return f.Kind == registry.FieldSandbox })
}

// giveSandbox answers the plan's sandbox field from --sandbox[=PROFILE]:
// the flag alone keeps the default the plan offers, =none opts out. A
// plan without the field (a remote, an image, a bundle) takes only the
// flag's absence or "none".
func giveSandbox(plan registry.Plan, flag string, values map[string]string) error {
	offered := slices.ContainsFunc(plan.Fields, func(f registry.Field) bool { return f.ID == registry.SandboxFieldID })
	switch {
	case flag == "":
	case !offered && flag != "none":
		return clierr.Usagef("--sandbox: %s runs no npm or PyPI package here, and mcpdeck sandboxes only those from the registry", textsafe.SanitizeLine(plan.Runs()))
	case flag == model.SandboxProfileDefault || flag == "none":
		values[registry.SandboxFieldID] = flag
	default:
		return clierr.Usagef("--sandbox=%s: a registry install offers the default profile or none", flag)
	}
	return nil
}

// fieldList names the fields a plan asks for, or says there are none.
func fieldList(fields []registry.Field) string {
	if len(fields) == 0 {
		return "nothing"
	}
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = textsafe.SanitizeLine(f.Label())
	}
	return strings.Join(names, ", ")
}

// askFields asks, in one form, for the fields the command line did not
// give. For the project's shared file secrets are not asked: they become
// references to the environment.
func askFields(g *clicore.Globals, plan registry.Plan, values map[string]string, mode registry.SecretMode) error {
	var ask []registry.Field
	for _, f := range valueFields(plan.Fields) {
		if _, given := values[f.ID]; !given && (mode == registry.SecretsInStore || !f.Input.IsSecret) {
			ask = append(ask, f)
		}
	}
	if len(ask) == 0 {
		return nil
	}
	fmt.Fprintf(g.Stdout, "%s asks for %s (esc to stop).\n", textsafe.SanitizeLine(plan.Entry.Name), fieldList(ask))
	form, typed, err := addserver.InstallForm(ask)
	if err != nil {
		return err
	}
	if err := form.WithInput(g.Stdin).WithOutput(g.RawStdout).Run(); err != nil {
		if errors.Is(err, huh.ErrUserAborted) {
			return errors.New("stopped: nothing was added")
		}
		return err
	}
	got, err := typed()
	if err != nil {
		return err
	}
	maps.Copy(values, got)
	return nil
}

// describeInstall shows what will be written and where, secrets as their
// references, and for a bundle what it is and where it is unpacked.
func describeInstall(g *clicore.Globals, plan registry.Plan, name string, scope model.Scope, path string, cfg model.ServerConfig, secrets []registry.Secret) {
	w, e := g.Stdout, plan.Entry
	fmt.Fprintf(w, "%s %s from the MCP Registry, as %s server %s in the %s scope (%s):\n",
		textsafe.SanitizeLine(e.Name), textsafe.SanitizeLine(e.Version), cfg.EffectiveType(), textsafe.SanitizeLine(name), scope, textsafe.SanitizeLine(path))
	for _, l := range plan.InstallLines(cfg, secrets) {
		fmt.Fprintln(w, "  "+textsafe.SanitizeLine(l))
	}
}

// fetchBundle downloads and checks the MCP bundle a plan runs, saying so
// on stderr (it may take a while); the plan comes back with the bundle
// and the settings its manifest asks for. A bundle is unpacked on this
// machine, so the project's shared .mcp.json, which others read on
// theirs, cannot point at it.
func fetchBundle(ctx context.Context, g *clicore.Globals, opts config.LoadOptions, scope model.Scope, plan registry.Plan) (registry.Plan, error) {
	e := plan.Entry
	if !scope.MayUseSecrets() {
		return plan, clierr.Usagef("%s is an MCP bundle, unpacked on this machine, where the project's shared .mcp.json cannot point; add it with -s user or -s local", textsafe.SanitizeLine(e.Name))
	}
	fmt.Fprintf(g.Stderr, "Downloading the bundle %s…\n", textsafe.SanitizeLine(plan.Package.Identifier))
	got, err := registrycmd.BundleStore(opts).Fetch(ctx, plan)
	if errors.Is(err, registry.ErrUnusable) {
		return plan, fmt.Errorf("%s@%s %w", textsafe.SanitizeLine(e.Name), textsafe.SanitizeLine(e.Version), err)
	}
	return got, err
}
