package model

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

func parseConfig(t *testing.T, s string) ServerConfig {
	t.Helper()
	var c ServerConfig
	if err := json.Unmarshal([]byte(s), &c); err != nil {
		t.Fatalf("%s: %v", s, err)
	}
	return c
}

func TestSandboxDecodes(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want *Sandbox
	}{
		{`{"command":"x"}`, nil},
		{`{"command":"x","sandbox":false}`, nil},
		{`{"command":"x","sandbox":null}`, nil},
		{`{"command":"x","sandbox":true}`, DefaultSandbox()},
		{`{"command":"x","sandbox":{}}`, DefaultSandbox()},
		{
			`{"command":"x","sandbox":{"profile":"write-project","network":"all"}}`,
			&Sandbox{Profile: SandboxProfileWriteProject, Network: SandboxNetwork{All: true}},
		},
		{
			`{"command":"x","sandbox":{"read":["~/data"],"write":["${OUT}"],"network":["api.github.com","*.npmjs.org","::1"]}}`,
			&Sandbox{
				Profile: SandboxProfileDefault, Read: []string{"~/data"}, Write: []string{"${OUT}"},
				Network: SandboxNetwork{Hosts: []string{"api.github.com", "*.npmjs.org", "::1"}},
			},
		},
		{
			`{"command":"x","sandbox":{"network":"none","future":1}}`,
			&Sandbox{Profile: SandboxProfileDefault, Extra: map[string]json.RawMessage{"future": json.RawMessage("1")}},
		},
	} {
		c := parseConfig(t, tc.in)
		if !reflect.DeepEqual(c.Sandbox, tc.want) {
			t.Errorf("%s: got %+v, want %+v", tc.in, c.Sandbox, tc.want)
		}
	}
}

func TestSandboxDecodeErrorsNameTheField(t *testing.T) {
	for _, tc := range []struct{ in, field, msg string }{
		{`{"sandbox":"yes"}`, "sandbox", "must be true, false or an object, got string"},
		{`{"sandbox":1}`, "sandbox", "must be true, false or an object, got number"},
		{`{"sandbox":{"profile":"strict"}}`, "sandbox.profile", `unknown profile "strict" (use default or write-project)`},
		{`{"sandbox":{"read":"/x"}}`, "sandbox.read", "must be an array of strings, got string"},
		{`{"sandbox":{"write":["/a",""]}}`, "sandbox.write[1]", "must not be empty"},
		{`{"sandbox":{"network":"some"}}`, "sandbox.network", `must be "none", "all" or a list of hosts, got "some"`},
		{`{"sandbox":{"network":true}}`, "sandbox.network", `must be "none", "all" or a list of hosts, got boolean`},
		{`{"sandbox":{"network":["ok.com",7]}}`, "sandbox.network[1]", "must be a string, got number"},
		{`{"sandbox":{"network":["https://x.com"]}}`, "sandbox.network[0]", `not a host entry: "//x.com" is not a port`},
		{`{"sandbox":{"network":["x.com/api"]}}`, "sandbox.network[0]", `not a host entry: "x.com/api" is not a host name`},
		{`{"sandbox":{"network":["x.com:0"]}}`, "sandbox.network[0]", `not a host entry: "0" is not a port from 1 to 65535`},
		{`{"sandbox":{"network":["x.com:"]}}`, "sandbox.network[0]", `not a host entry: "" is not a port`},
		{`{"sandbox":{"network":["[::1"]}}`, "sandbox.network[0]", `not a host entry: "[::1" misses its closing bracket`},
		{`{"sandbox":{"network":["a.*.com"]}}`, "sandbox.network[0]", `not a host entry: "a.*.com" is not a host name`},
		{`{"sandbox":{"network":["*"]}}`, "sandbox.network[0]", `not a host entry: "*" is not a host name`},
		{`{"sandbox":{"read":[],"read":[]}}`, "sandbox.read", `duplicate key "read"`},
		{`{"sandbox":{"sockets":"/run/docker.sock"}}`, "sandbox.sockets", "must be an array of strings, got string"},
		{`{"sandbox":{"sockets":[""]}}`, "sandbox.sockets[0]", "must not be empty"},
	} {
		wantFieldError(t, tc.in, tc.field, tc.msg)
	}
}

func TestSandboxRoundTrip(t *testing.T) {
	for in, want := range map[string]string{
		`{"command":"x","sandbox":true}`:                                             `{"command":"x","sandbox":true}`,
		`{"command":"x","sandbox":{"profile":"default"}}`:                            `{"command":"x","sandbox":true}`,
		`{"command":"x","sandbox":false}`:                                            `{"command":"x"}`,
		`{"command":"x","sandbox":{"network":["a.com"],"read":["/r"]}}`:              `{"command":"x","sandbox":{"read":["/r"],"network":["a.com"]}}`,
		`{"command":"x","sandbox":{"z":1,"profile":"write-project"}}`:                `{"command":"x","sandbox":{"profile":"write-project","z":1}}`,
		`{"command":"x","sandbox":{"network":"all","write":["${PROJECT_DIR}/out"]}}`: `{"command":"x","sandbox":{"write":["${PROJECT_DIR}/out"],"network":"all"}}`,
		`{"command":"x","sandbox":{"sockets":["~/s.sock"],"network":"all"}}`:         `{"command":"x","sandbox":{"network":"all","sockets":["~/s.sock"]}}`,
	} {
		c := parseConfig(t, in)
		out, err := jsondoc.MarshalNoEscape(c)
		if err != nil {
			t.Fatal(err)
		}
		if string(out) != want {
			t.Errorf("%s: wrote %s, want %s", in, out, want)
		}
		if back := parseConfig(t, string(out)); ConfigHash(back) != ConfigHash(c) {
			t.Errorf("%s: round trip changed the hash", in)
		}
	}
}

func TestSandboxIsHashed(t *testing.T) {
	h := func(s string) string { return ConfigHash(parseConfig(t, s)) }
	none := h(`{"command":"x"}`)
	if h(`{"command":"x","sandbox":false}`) != none {
		t.Error(`"sandbox": false must hash as no sandbox (it means the same)`)
	}
	def := h(`{"command":"x","sandbox":true}`)
	if def == none {
		t.Error("adding a sandbox kept the hash: approval would not be asked again")
	}
	if h(`{"command":"x","sandbox":{}}`) != def || h(`{"command":"x","sandbox":{"profile":"default"}}`) != def {
		t.Error("spellings of the default profile hash differently")
	}
	seen := map[string]string{none: "none", def: "true"}
	for _, s := range []string{
		`{"command":"x","sandbox":{"network":"all"}}`,
		`{"command":"x","sandbox":{"network":["a.com"]}}`,
		`{"command":"x","sandbox":{"network":["b.com"]}}`,
		`{"command":"x","sandbox":{"read":["/a"]}}`,
		`{"command":"x","sandbox":{"write":["/a"]}}`,
		`{"command":"x","sandbox":{"profile":"write-project"}}`,
		`{"command":"x","sandbox":{"future":1}}`,
		`{"command":"x","sandbox":{"sockets":["/run/docker.sock"]}}`,
	} {
		got := h(s)
		if prev, ok := seen[got]; ok {
			t.Errorf("%s hashes like %s: a widened sandbox would keep its approval", s, prev)
		}
		seen[got] = s
	}
}

func TestSandboxExpandsPaths(t *testing.T) {
	c := parseConfig(t, `{"command":"x","sandbox":{"read":["${DATA}/in"],"write":["${NOPE}"]}}`)
	look := func(k string) (string, bool) {
		if k == "DATA" {
			return "/srv/data", true
		}
		return "", false
	}
	out, _, probs := c.Expand(look, nil, "/proj")
	if !reflect.DeepEqual(out.Sandbox.Read, []string{"/srv/data/in"}) {
		t.Errorf("read not expanded: %v", out.Sandbox.Read)
	}
	if len(probs) != 1 || probs[0].Field != "sandbox.write[0]" || !strings.Contains(probs[0].Message, "${NOPE} is not set") {
		t.Errorf("problems = %+v", probs)
	}
	if c.Sandbox.Read[0] != "${DATA}/in" {
		t.Error("Expand changed the definition as written")
	}
}

func TestSandboxSummary(t *testing.T) {
	var none *Sandbox
	if none.Summary() != "none" {
		t.Error(none.Summary())
	}
	s := &Sandbox{Profile: "default", Write: []string{"/out"}, Network: SandboxNetwork{Hosts: []string{"a.com", "*.b.com"}}}
	if got, want := s.Summary(), "default profile · write /out · network a.com, *.b.com"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if n := s.Network.AddHost("c.com"); n.String() != "a.com, *.b.com, c.com" || len(s.Network.Hosts) != 2 {
		t.Errorf("AddHost: %v (original %v)", n, s.Network)
	}
	if n := s.Network.AddHost("a.com"); len(n.Hosts) != 2 {
		t.Errorf("AddHost added a host twice: %v", n)
	}
}

// FuzzSandboxDecode: the sandbox field never panics the decoder; whatever
// decodes writes back to JSON that decodes to the same hash, and every
// host it accepted passes CheckSandboxHost.
func FuzzSandboxDecode(f *testing.F) {
	for _, s := range []string{
		`true`, `false`, `null`, `{}`, `{"profile":"write-project"}`, `{"network":"all"}`,
		`{"network":["*.a.com","b"]}`, `{"read":["~"],"write":["${X}"],"x":[1]}`, `{"network":["*."]}`, `"yes"`, `{"read":[""]}`,
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, sb string) {
		in := `{"command":"x","sandbox":` + sb + `}`
		var c ServerConfig
		if json.Unmarshal([]byte(in), &c) != nil {
			return
		}
		if c.Sandbox != nil {
			for _, h := range c.Sandbox.Network.Hosts {
				if CheckSandboxHost(h) != "" {
					t.Fatalf("accepted host %q", h)
				}
			}
		}
		out, err := json.Marshal(c)
		if err != nil {
			t.Fatal(err)
		}
		var back ServerConfig
		if err := json.Unmarshal(out, &back); err != nil {
			t.Fatalf("%s wrote %s, which does not decode: %v", in, out, err)
		}
		if ConfigHash(back) != ConfigHash(c) {
			t.Fatalf("%s: round trip through %s changed the hash", in, out)
		}
	})
}
