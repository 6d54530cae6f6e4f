package sandbox

import (
	"maps"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// hostVarPasses reports whether a variable of mcpdeck's environment
// reaches a sandboxed server whose network is network: what a program
// needs to find its tools, speak the person's language and draw on their
// terminal (PATH, HOME, LANG, LANGUAGE, LC_*, TERM, TZ), and, with the
// network all, the proxy variables that reach it. Nothing else passes:
// an environment is where tokens live (cloud keys, agent sockets,
// mcpdeck's own credentials), and a server that needs one names it in its
// definition's env.
func hostVarPasses(name string, network model.SandboxNetwork) bool {
	for _, pat := range passedHostVars(network) {
		if prefix, ok := strings.CutSuffix(pat, "*"); ok && strings.HasPrefix(name, prefix) || pat == name {
			return true
		}
	}
	return false
}

// passedHostVars are the names (a final * for any ending) of mcpdeck's
// variables a sandboxed server receives: the allow-list.
func passedHostVars(network model.SandboxNetwork) []string {
	out := []string{"PATH", "HOME", "LANG", "LANGUAGE", "LC_*", "TERM", "TZ"}
	if network.All {
		out = append(out, hostProxyVars()...)
	}
	return out
}

// EnvRule is what a sandboxed server's environment is made of, as the
// approval view shows it before anything runs: the allow-list's names
// (LC_* for every locale variable), the private temporary directory's and
// caches', the proxy's with a host list, then the definition's env names.
func EnvRule(def map[string]string, network model.SandboxNetwork) []string {
	out := passedHostVars(network)
	for _, kv := range sandboxEnv(nil, insideTemp) {
		name, _, _ := strings.Cut(kv, "=")
		out = append(out, name)
	}
	if len(network.Hosts) > 0 && !network.All {
		out = append(out, ProxyEnvNames()...)
	}
	for _, k := range slices.Sorted(maps.Keys(def)) {
		if !slices.Contains(out, k) && !slices.Contains(closedSocketVars(), k) {
			out = append(out, k)
		}
	}
	return out
}

// hostProxyVars are the proxy variables of the person's own network.
func hostProxyVars() []string {
	return []string{
		"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "NO_PROXY",
		"http_proxy", "https_proxy", "all_proxy", "no_proxy",
	}
}

// closedSocketVars name sockets every sandbox keeps closed (the D-Bus
// session bus, the SSH and GPG agents): a definition's env that sets one
// would only point the server at a door that does not open.
func closedSocketVars() []string {
	return []string{"DBUS_SESSION_BUS_ADDRESS", "SSH_AUTH_SOCK", "GPG_AGENT_INFO"}
}

// ServerEnv is the environment a sandboxed server starts with, before
// the mechanism places its temporary directory: from host (mcpdeck's
// environment) only what hostVarPasses allows, never a credential of
// mcpdeck's own (model.OwnSecretVar), then the definition's env (def) on
// top, without the addresses of closed sockets.
func ServerEnv(host []string, def map[string]string, network model.SandboxNetwork) []string {
	out := make([]string, 0, 8+len(def))
	for _, kv := range host {
		name, _, _ := strings.Cut(kv, "=")
		if _, mine := def[name]; mine || !hostVarPasses(name, network) || model.OwnSecretVar(name) {
			continue
		}
		out = append(out, kv)
	}
	for _, k := range slices.Sorted(maps.Keys(def)) {
		if !slices.Contains(closedSocketVars(), k) {
			out = append(out, k+"="+def[k])
		}
	}
	return out
}

// EnvNames are the names of the variables a sandboxed server receives,
// sorted: ServerEnv's, those the mechanism sets (sandboxEnv), and, with a
// host list, the proxy variables that point it at mcpdeck's proxy. What
// the views show is what the launcher gives.
func EnvNames(host []string, def map[string]string, network model.SandboxNetwork) []string {
	env := sandboxEnv(ServerEnv(host, def, network), insideTemp)
	if len(network.Hosts) > 0 && !network.All {
		env = append(env, ProxyEnvNames()...)
	}
	names := make([]string, 0, len(env))
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		names = append(names, name)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// ProxyEnvNames are the variables that point a server whose network is a
// host list at mcpdeck's proxy: transports/egress sets them (its tests
// hold it to this list).
func ProxyEnvNames() []string {
	return []string{"HTTP_PROXY", "HTTPS_PROXY", "ALL_PROXY", "http_proxy", "https_proxy", "all_proxy", "NODE_USE_ENV_PROXY"}
}

// sandboxEnv is env with TMPDIR (and TMP, TEMP) at the private temporary
// directory tmp and the npm and uv caches inside it unless env places
// them, and without the addresses of closed sockets.
func sandboxEnv(env []string, tmp string) []string {
	set := map[string]string{"TMPDIR": tmp, "TMP": tmp, "TEMP": tmp}
	defaults := map[string]string{"npm_config_cache": filepath.Join(tmp, "npm"), "UV_CACHE_DIR": filepath.Join(tmp, "uv")}
	out := make([]string, 0, len(env)+len(set))
	for _, kv := range env {
		k, _, _ := strings.Cut(kv, "=")
		delete(defaults, k)
		if slices.Contains(closedSocketVars(), k) || set[k] != "" {
			continue
		}
		out = append(out, kv)
	}
	for _, m := range []map[string]string{set, defaults} {
		for _, k := range slices.Sorted(maps.Keys(m)) {
			out = append(out, k+"="+m[k])
		}
	}
	return out
}
