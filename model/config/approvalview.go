package config

import (
	"bytes"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/sandbox"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ApprovalLine is one labelled line of what a server will run or send.
// Label is empty on a line that continues the one above (the next argument
// of a long command). Value is safe to print: every control, escape, bidi
// and invisible character in it is shown escaped (see Escape), so it can
// neither move the cursor nor hide what surrounds it.
type ApprovalLine struct {
	Label string
	Value string
}

// commandLineMax is the widest command line shown on one line; a longer one
// shows one argument per line, so none is lost past the screen's edge.
const commandLineMax = 72

// ApprovalView lists everything in raw, a server definition as written in
// source (before ${VAR} expansion), that changes what runs or what is sent,
// so that the person approves exactly that: type, command and every
// argument, cwd, the directory it runs in (runsIn: Server.RunsIn, "" for
// a server mcpdeck starts no process for), every env variable and header
// with its value as written, the headers helper, OAuth settings, URL,
// protocol version, the sandbox, fields this version does not know, which of the
// person's environment variables go where, and the source file. Values are not masked: a definition awaiting
// approval comes from a repository, so its values are the repository's,
// and masking them would hide exactly what a hostile one relies on
// (NODE_OPTIONS, LD_PRELOAD). The TUI's approval prompt, `mcp get` and
// `mcp approve` all show this list.
func ApprovalView(raw model.ServerConfig, runsIn, source string) []ApprovalLine {
	var out []ApprovalLine
	add := func(label, value string) { out = append(out, ApprovalLine{Label: label, Value: value}) }
	add("Type", textsafe.Escape(string(raw.EffectiveType())))
	if raw.Name != "" {
		add("Built-in", textsafe.Escape(raw.Name))
	}
	if raw.Command != "" || len(raw.Args) > 0 {
		out = append(out, commandLines(raw.Command, raw.Args)...)
	}
	if raw.Cwd != "" {
		add("Cwd", textsafe.Escape(raw.Cwd))
	}
	if runsIn != "" {
		add("Runs in", textsafe.Escape(runsIn))
	}
	for _, k := range slices.Sorted(maps.Keys(raw.Env)) {
		add("Env", textsafe.Escape(k)+"="+textsafe.Escape(raw.Env[k]))
	}
	if raw.URL != "" {
		add("URL", textsafe.Escape(raw.URL))
	}
	for _, k := range slices.Sorted(maps.Keys(raw.Headers)) {
		add("Header", textsafe.Escape(k)+": "+textsafe.Escape(raw.Headers[k]))
	}
	if raw.HeadersHelper != "" {
		add("Headers helper", textsafe.Escape(raw.HeadersHelper))
	}
	out = append(out, oauthLines(raw.OAuth)...)
	if raw.ProtocolVersion != "" {
		add("Protocol version", textsafe.Escape(raw.ProtocolVersion))
	}
	out = append(out, sandboxLines(raw.Sandbox, raw.Env)...)
	out = append(out, extraLines("Unknown field", raw.Extra)...)
	out = append(out, variableLines(raw)...)
	add("Source", textsafe.Escape(source))
	return out
}

// commandLines shows the command and its arguments, each quoted by
// QuoteArg: on one line when it fits commandLineMax, else one per line.
func commandLines(command string, args []string) []ApprovalLine {
	parts := make([]string, 0, 1+len(args))
	for _, a := range append([]string{command}, args...) {
		parts = append(parts, textsafe.QuoteArg(a))
	}
	if one := strings.Join(parts, " "); len(one) <= commandLineMax {
		return []ApprovalLine{{Label: "Command", Value: one}}
	}
	out := []ApprovalLine{{Label: "Command", Value: parts[0]}}
	for _, p := range parts[1:] {
		out = append(out, ApprovalLine{Value: p})
	}
	return out
}

// oauthLines shows every OAuth setting as written.
func oauthLines(o *model.OAuthConfig) []ApprovalLine {
	if o == nil {
		return nil
	}
	var out []ApprovalLine
	add := func(label, value string) {
		if value != "" {
			out = append(out, ApprovalLine{Label: label, Value: textsafe.Escape(value)})
		}
	}
	add("OAuth client ID", o.ClientID)
	if o.CallbackPort != 0 {
		add("OAuth callback port", strconv.Itoa(o.CallbackPort))
	}
	add("OAuth scopes", strings.Join(o.Scopes, " "))
	add("OAuth metadata URL", o.AuthServerMetadataURL)
	add("OAuth client metadata URL", o.ClientMetadataURL)
	add("OAuth grant", o.Grant)
	add("OAuth assertion file", o.AssertionFile)
	add("OAuth assertion command", o.AssertionCommand)
	out = append(out, extraLines("OAuth unknown field", o.Extra)...)
	if len(out) == 0 {
		out = append(out, ApprovalLine{Label: "OAuth", Value: "on, with default settings"})
	}
	return out
}

// sandboxLines shows the sandbox the definition asks for: its profile,
// each path, host and socket it adds, so approving it approves exactly
// those, and the environment variables it receives (sandbox.EnvRule; env
// is the definition's).
func sandboxLines(s *model.Sandbox, env map[string]string) []ApprovalLine {
	if s == nil {
		return nil
	}
	out := []ApprovalLine{{Label: "Sandbox", Value: textsafe.Escape(s.Profile) + " profile"}}
	for _, p := range s.Read {
		out = append(out, ApprovalLine{Label: "Sandbox reads", Value: textsafe.Escape(p)})
	}
	for _, p := range s.Write {
		out = append(out, ApprovalLine{Label: "Sandbox writes", Value: textsafe.Escape(p)})
	}
	out = append(out, ApprovalLine{Label: "Sandbox network", Value: textsafe.Escape(s.Network.String())})
	for _, p := range s.Sockets {
		out = append(out, ApprovalLine{Label: "Sandbox sockets", Value: textsafe.Escape(p)})
	}
	out = append(out, ApprovalLine{Label: "Sandbox env", Value: textsafe.Escape(strings.Join(sandbox.EnvRule(env, s.Network), " "))})
	return append(out, extraLines("Sandbox unknown field", s.Extra)...)
}

// SandboxLines are what a sandbox would open on this machine
// (sandbox.View, home shown as ~ when home is set), as approval lines,
// each value escaped like the definition's.
func SandboxLines(v *sandbox.View, home string) []ApprovalLine {
	if v == nil {
		return nil
	}
	var out []ApprovalLine
	for _, l := range v.Lines(home) {
		out = append(out, ApprovalLine{Label: l.Label, Value: textsafe.Escape(l.Value)})
	}
	return out
}

// extraLines shows fields mcpdeck does not know, as compact JSON, so that
// nothing in the definition is hidden.
func extraLines(label string, extra map[string]json.RawMessage) []ApprovalLine {
	var out []ApprovalLine
	for _, k := range slices.Sorted(maps.Keys(extra)) {
		v := extra[k]
		var b bytes.Buffer
		if json.Compact(&b, v) == nil {
			v = b.Bytes()
		}
		out = append(out, ApprovalLine{Label: label, Value: textsafe.Escape(k) + ": " + textsafe.Escape(string(v))})
	}
	return out
}

// variableLines says which of the person's environment variables the
// definition would hand out, and to whom: ${VAR} references in the URL and
// headers go to the server's host, those in the command, arguments, env
// and cwd to the program it starts (${PROJECT_DIR} in cwd is mcpdeck's,
// not the person's), those in the headers helper to that helper, those in
// OAuth settings to the authorization server.
func variableLines(raw model.ServerConfig) []ApprovalLine {
	var out []ApprovalLine
	say := func(to string, names []string) {
		if len(names) == 0 {
			return
		}
		for i, n := range names {
			names[i] = "$" + textsafe.Escape(n)
		}
		out = append(out, ApprovalLine{Label: "Sends", Value: "your " + strings.Join(names, ", ") + " to " + to})
	}
	say(textsafe.Escape(urlHost(raw.URL)), referencedVars("", append([]string{raw.URL}, slices.Collect(maps.Values(raw.Headers))...)...))
	program := append([]string{raw.Command}, raw.Args...)
	say("the program it runs", referencedVars(raw.Cwd, append(program, slices.Collect(maps.Values(raw.Env))...)...))
	say("the headers helper", referencedVars("", raw.HeadersHelper))
	if o := raw.OAuth; o != nil {
		say("the authorization server", referencedVars("", append([]string{o.ClientID, o.AuthServerMetadataURL, o.ClientMetadataURL, o.Grant}, o.Scopes...)...))
	}
	return out
}

// referencedVars lists, sorted and once each, the variables of the
// person's environment that expansion would look up in values, and in cwd
// (where ${PROJECT_DIR} is mcpdeck's, not theirs).
func referencedVars(cwd string, values ...string) []string {
	seen := map[string]bool{}
	record := func(name string) (string, bool) {
		seen[name] = true
		return "", true
	}
	for _, v := range values {
		model.Expand(v, record)
	}
	model.Expand(cwd, func(name string) (string, bool) {
		if name == model.ProjectDirVar {
			return "", true
		}
		return record(name)
	})
	return slices.Sorted(maps.Keys(seen))
}

// urlHost is the host (and port) of a URL as written, without userinfo;
// "the server" when there is none to name.
func urlHost(raw string) string {
	_, rest, ok := strings.Cut(raw, "://")
	if !ok {
		return "the server"
	}
	if end := strings.IndexAny(rest, "/?#"); end >= 0 {
		rest = rest[:end]
	}
	if at := strings.LastIndexByte(rest, '@'); at >= 0 {
		rest = rest[at+1:]
	}
	if rest == "" {
		return "the server"
	}
	return rest
}
