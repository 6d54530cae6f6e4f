package registry

import (
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// bundle builds the stdio definition that runs a bundle's server: its
// manifest's mcp_config, with ${__dirname} the bundle's directory, the
// directory variables filled and each ${user_config.KEY} the person's
// value (a secret as its ${secret:NAME}); then the server.json's own
// environment variables and arguments. It runs in the bundle's directory,
// where a manifest's relative paths point.
func (b *builder) bundle() (model.ServerConfig, error) {
	bd := b.plan.Bundle
	if b.mode == SecretsFromEnv {
		return model.ServerConfig{}, fmt.Errorf("%w: an MCP bundle is unpacked on this machine (%s), where the project's shared .mcp.json cannot point; add it to the user or local scope", ErrUnusable, bd.Dir)
	}
	mc := bd.Manifest.config(bd.platform)
	cmd := filepath.Join(bd.Dir, filepath.FromSlash(bd.Exec))
	if bd.Exec == "" {
		v, set, err := b.fill("its command", mc.Command)
		if err != nil {
			return model.ServerConfig{}, err
		}
		if !set || v == "" {
			return model.ServerConfig{}, fmt.Errorf("%w: the command of the bundle %s is a setting left empty", ErrUnusable, bd.URL)
		}
		cmd = v
	}
	var args []string
	for i, a := range mc.Args {
		vs, err := b.fillArg(fmt.Sprintf("argument %d", i+1), a)
		if err != nil {
			return model.ServerConfig{}, err
		}
		args = append(args, vs...)
	}
	env := map[string]string{}
	for _, k := range slices.Sorted(maps.Keys(mc.Env)) {
		v, set, err := b.fill("env "+k, mc.Env[k])
		if err != nil {
			return model.ServerConfig{}, err
		}
		if set {
			env[k] = v
		}
	}
	pk := b.plan.Package
	own, _, err := b.keyValues(FieldEnv, pk.EnvironmentVariables)
	if err != nil {
		return model.ServerConfig{}, err
	}
	maps.Copy(env, own)
	pkgArgs, err := b.args(pk.PackageArguments)
	if err != nil {
		return model.ServerConfig{}, err
	}
	cfg := model.ServerConfig{Type: model.TransportStdio, Command: cmd, Args: append(args, pkgArgs...), Cwd: bd.Dir}
	if len(env) > 0 {
		cfg.Env = env
	}
	return cfg, nil
}

// fillArg is one argument of the manifest: an argument that is only
// ${user_config.KEY} is left out when the setting is unset, and becomes
// one argument per value of a setting that takes several.
func (b *builder) fillArg(what, tpl string) ([]string, error) {
	v, set, err := b.fill(what, tpl)
	if err != nil || !set {
		return nil, err
	}
	key, whole := wholeOption(tpl)
	f, _ := b.fieldByID("user:" + key)
	i := slices.IndexFunc(b.plan.Bundle.Manifest.UserConfig, func(o UserOption) bool { return o.Key == key })
	if !whole || f.Input.IsSecret || i < 0 || !b.plan.Bundle.Manifest.UserConfig[i].Multiple {
		return []string{v}, nil
	}
	var out []string
	for _, part := range filepath.SplitList(v) {
		if part != "" {
			out = append(out, part)
		}
	}
	return out, nil
}

// wholeOption reports whether tpl is exactly ${user_config.KEY}, and KEY.
func wholeOption(tpl string) (string, bool) {
	inner, ok := strings.CutPrefix(tpl, "${user_config.")
	if !ok || !strings.HasSuffix(inner, "}") || strings.Contains(inner, "${") {
		return "", false
	}
	return strings.TrimSuffix(inner, "}"), true
}

// fill substitutes a manifest's text: the directories and the bundle's
// directory (mcpdeck's own values), and the settings (the person's, or a
// default). The manifest's text around them cannot form a ${...}
// reference with them. A text that is only a setting left unset is unset;
// an unset setting inside a longer text is empty there.
func (b *builder) fill(what, tpl string) (string, bool, error) {
	if _, whole := wholeOption(tpl); whole {
		v, err := b.option(tpl)
		if err != nil || !v.set {
			return "", false, err
		}
		var t tainted
		t.add(v.text, v.trusted)
		s, err := t.result(what)
		return s, true, err
	}
	dirs := b.plan.Bundle.dirs()
	var t tainted
	for rest := tpl; ; {
		i := strings.Index(rest, "${")
		if i < 0 {
			t.add(rest, false)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return "", false, fmt.Errorf("%w: %s holds an unclosed ${", ErrUnusable, what)
		}
		t.add(rest[:i], false)
		token := rest[i : i+j+1]
		if d, ok := dirs[token[2:len(token)-1]]; ok {
			t.add(d, true)
		} else {
			v, err := b.option(token)
			if err != nil {
				return "", false, err
			}
			t.add(v.text, v.trusted)
		}
		rest = rest[i+j+1:]
	}
	s, err := t.result(what)
	return s, true, err
}

// option is the value of the setting a ${user_config.KEY} names.
func (b *builder) option(token string) (piece, error) {
	key, ok := wholeOption(token)
	if !ok {
		return piece{}, fmt.Errorf("%w: %s is not a variable a bundle may use", ErrUnusable, token)
	}
	if _, known := b.fieldByID("user:" + key); !known {
		return piece{}, fmt.Errorf("%w: the bundle uses the setting %s, which it does not declare", ErrUnusable, key)
	}
	return b.value("user:" + key)
}
