package engcmd

import (
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/testdata/clitest"
)

// weatherServers is EngServers with the demo weather server, whose
// forecast tool takes an enum, an integer and a boolean.
func weatherServers(t *testing.T) string {
	return clitest.EngServers(t, map[string]any{
		"weather": map[string]any{"command": clitest.Binary, "args": []string{"demo-server", "weather-sim"}},
	})
}

// TestCallTakesKeyValueArguments: call takes key=value words as well as
// JSON (HTTPie's form): key=text typed by the tool's input schema ("2" for
// an integer property is 2, "true" for a boolean true), key:=JSON as
// written; text that is not of the property's type stays text, and the
// schema check names the field (exit 1).
func TestCallTakesKeyValueArguments(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := weatherServers(t)
	r := e.OK("--mcp-config", cfg, "call", "weather", "forecast", "city=Oslo", "days=2", "fahrenheit=true")
	if lines := strings.Split(strings.TrimSpace(r.Stdout), "\n"); len(lines) != 2 || !strings.Contains(r.Stdout, "°F") {
		t.Errorf("forecast city=Oslo days=2 fahrenheit=true: want two days in °F, got %s", r)
	}
	r = e.OK("--mcp-config", cfg, "call", "calc", "calculate", "op=multiply", "a=6", "b:=7")
	if strings.TrimSpace(r.Stdout) != "42" {
		t.Errorf("calculate op=multiply a=6 b:=7: %s", r)
	}
	r = e.Fails(1, "--mcp-config", cfg, "call", "calc", "calculate", "op=add", "a=six", "b=1")
	if !strings.Contains(r.Stderr, `field "a"`) {
		t.Errorf("a=six for a number: want the schema check to name the field, got %s", r)
	}
	r = e.Fails(1, "--mcp-config", cfg, "call", "weather", "forecast", "city=Oslo", `days:="2"`)
	if !strings.Contains(r.Stderr, `field "days"`) {
		t.Errorf(`days:="2" is a JSON string, sent as written: %s`, r)
	}
}

// TestPromptTakesKeyValueArguments: prompt arguments, which MCP defines as
// strings, as key=value words; := (a JSON value) is refused for them.
func TestPromptTakesKeyValueArguments(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	r := e.OK("--mcp-config", cfg, "prompt", "calc", "explain", "expression=6 * 7")
	if !strings.Contains(r.Stdout, "user: Explain step by step: 6 * 7") {
		t.Errorf("prompt explain expression=…: %s", r)
	}
	r = e.Fails(2, "--mcp-config", cfg, "prompt", "calc", "explain", "expression:=42")
	if !strings.Contains(r.Stderr, "prompt arguments are strings, so give them as expression=value") {
		t.Errorf("prompt with :=: %s", r)
	}
}

// TestArgumentMistakesShowTheExpectedForm: a JSON argument that is not an
// object, a word that is neither JSON nor key=value, and a key given twice
// are usage errors (exit 2), and the first two show a command line giving
// the arguments both ways.
func TestArgumentMistakesShowTheExpectedForm(t *testing.T) {
	e := clitest.NewEnv(t)
	cfg := clitest.EngServers(t, nil)
	example := `for example: mcpdeck call calc calculate '{"name": "value", "count": 3}' or: mcpdeck call calc calculate name=value count:=3`
	for _, args := range [][]string{
		{"call", "calc", "calculate", `{op: "add"}`},
		{"call", "calc", "calculate", "op", "add"},
		{"call", "calc", "calculate", "op=add", `{"a": 1}`},
	} {
		r := e.Fails(2, append([]string{"--mcp-config", cfg}, args...)...)
		if !strings.Contains(r.Stderr, example) {
			t.Errorf("%q: want the example %q, got %s", args, example, r)
		}
	}
	r := e.Fails(2, "--mcp-config", cfg, "prompt", "calc", "explain", "[1]")
	if !strings.Contains(r.Stderr, `got an array, want an object`) ||
		!strings.Contains(r.Stderr, `for example: mcpdeck prompt calc explain '{"name": "value"}' or: mcpdeck prompt calc explain name=value`) {
		t.Errorf("prompt with an array: %s", r)
	}
	r = e.Fails(2, "--mcp-config", cfg, "call", "calc", "calculate", "a=1", "a:=2")
	if !strings.Contains(r.Stderr, "the tool argument a is given twice") {
		t.Errorf("a key twice: %s", r)
	}
	r = e.Fails(2, "--mcp-config", cfg, "call", "calc", "calculate", "a:=one")
	if !strings.Contains(r.Stderr, "after := comes a JSON value") {
		t.Errorf("a:=one: %s", r)
	}
}
