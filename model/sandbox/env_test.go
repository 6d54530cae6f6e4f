package sandbox

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
)

func TestSandboxEnv(t *testing.T) {
	env := sandboxEnv([]string{"PATH=/usr/bin", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/user/1/bus", "SSH_AUTH_SOCK=/x", "TMPDIR=/var/tmp", "UV_CACHE_DIR=/mine"}, "/tmp")
	slices.Sort(env)
	want := []string{"PATH=/usr/bin", "TEMP=/tmp", "TMP=/tmp", "TMPDIR=/tmp", "UV_CACHE_DIR=/mine", "npm_config_cache=/tmp/npm"}
	if !slices.Equal(env, want) {
		t.Errorf("env\n%v\nwant\n%v", env, want)
	}
}

// hostEnv is an environment such as a person's: their tools and
// language, cloud keys, an agent socket and mcpdeck's own credentials.
func hostEnv() []string {
	return []string{
		"PATH=/usr/bin", "HOME=/home/u", "LANG=C.UTF-8", "LC_ALL=C.UTF-8", "TERM=xterm", "TZ=UTC",
		"AWS_SECRET_ACCESS_KEY=aws", "GITHUB_TOKEN=gh", "SSH_AUTH_SOCK=/tmp/agent", "HTTPS_PROXY=http://corp:3128",
		"MCPDECK_SERVE_TOKEN=serve", "MCPDECK_CLIENT_SECRET=cs", "MCPDECK_CLIENT_PRIVATE_KEY=pk",
		"MCPDECK_IDP_ID_TOKEN=idt", "MCPDECK_IDP_CLIENT_SECRET=idcs", "MCPDECK_IDP_FUTURE=x",
	}
}

// TestServerEnvIsAnAllowList: a sandboxed server gets PATH, HOME, the
// language and terminal, and its definition's env; no cloud key, agent
// socket or credential of mcpdeck's own, even one the definition
// re-states under its own name; the person's proxy only with network all.
func TestServerEnvIsAnAllowList(t *testing.T) {
	def := map[string]string{"API_KEY": "mine", "SSH_AUTH_SOCK": "/tmp/agent", "LANG": "fr_FR.UTF-8"}
	got := ServerEnv(hostEnv(), def, model.SandboxNetwork{})
	want := []string{"PATH=/usr/bin", "HOME=/home/u", "LC_ALL=C.UTF-8", "TERM=xterm", "TZ=UTC", "API_KEY=mine", "LANG=fr_FR.UTF-8"}
	if !slices.Equal(got, want) {
		t.Errorf("env\n%v\nwant\n%v", got, want)
	}
	all := strings.Join(ServerEnv(hostEnv(), nil, model.SandboxNetwork{All: true}), " ")
	if !strings.Contains(all, "HTTPS_PROXY=http://corp:3128") || strings.Contains(all, "MCPDECK_") || strings.Contains(all, "GITHUB_TOKEN") {
		t.Errorf("network all: %s", all)
	}
	hosts := strings.Join(ServerEnv(hostEnv(), nil, model.SandboxNetwork{Hosts: []string{"a.com"}}), " ")
	if strings.Contains(hosts, "corp:3128") {
		t.Errorf("a host list passes the person's proxy (mcpdeck's proxy is the way out): %s", hosts)
	}
}

func TestEnvNames(t *testing.T) {
	got := strings.Join(EnvNames(hostEnv(), map[string]string{"API_KEY": "x"}, model.SandboxNetwork{}), " ")
	if got != "API_KEY HOME LANG LC_ALL PATH TEMP TERM TMP TMPDIR TZ UV_CACHE_DIR npm_config_cache" {
		t.Errorf("names: %s", got)
	}
	hosts := EnvNames(hostEnv(), nil, model.SandboxNetwork{Hosts: []string{"a.com"}})
	for _, n := range ProxyEnvNames() {
		if !slices.Contains(hosts, n) {
			t.Errorf("host list: %s missing from %v", n, hosts)
		}
	}
}
