package cliargs

import (
	"encoding/json"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/clierr"
)

// ArgsForm is how a command takes the arguments after its names, for
// ReadArgs and the example its errors show: a tool's (any JSON value,
// key:=JSON allowed) or a prompt's (strings only).
type ArgsForm struct {
	Command string // "call" or "prompt"
	What    string // "tool" or "prompt"
	Server  string
	Name    string
	Strings bool // prompt arguments, which MCP defines as strings: key=value only
}

// example is a command line giving arguments both ways, for errors.
func (f ArgsForm) example() string {
	head := "mcpdeck " + f.Command + " " + textsafe.QuoteArg(f.Server) + " " + textsafe.QuoteArg(f.Name) + " "
	if f.Strings {
		return "for example: " + head + `'{"name": "value"}' or: ` + head + "name=value"
	}
	return "for example: " + head + `'{"name": "value", "count": 3}' or: ` + head + "name=value count:=3"
}

// Args are a command's arguments as ReadArgs read them: one JSON object,
// or key=value words still to be typed (Typed).
type Args struct {
	object map[string]any
	pairs  []argPair
}

// argPair is one key=value word; raw marks key:=JSON, whose value is
// decoded already.
type argPair struct {
	key  string
	text string
	raw  bool
	v    any
}

// ReadArgs reads the words after a command's names: nothing ({}), one JSON
// object, "-" for a JSON object on stdin (arguments from a pipe or a file
// need no shell quoting), or key=value words in HTTPie's form: key=text,
// which Typed types with the input schema, and key:=JSON, a JSON value as
// written. Mistakes are usage errors that show both forms.
func ReadArgs(g *clicore.Globals, words []string, f ArgsForm) (Args, error) {
	if len(words) == 0 {
		return Args{object: map[string]any{}}, nil
	}
	if len(words) == 1 && !isPairWord(words[0]) {
		js, err := JSONArg(g, words, 0)
		if err != nil {
			return Args{}, err
		}
		var obj map[string]any
		if err := DecodeObject(js, &obj); err != nil {
			return Args{}, clierr.Usagef("the %s arguments must be a JSON object or key=value words: %v; %s", f.What, err, f.example())
		}
		return Args{object: obj}, nil
	}
	var a Args
	seen := map[string]bool{}
	for _, w := range words {
		p, err := readPair(w, f)
		if err != nil {
			return Args{}, err
		}
		if seen[p.key] {
			return Args{}, clierr.Usagef("the %s argument %s is given twice", f.What, textsafe.QuoteArg(p.key))
		}
		seen[p.key] = true
		a.pairs = append(a.pairs, p)
	}
	return a, nil
}

// isPairWord reports whether w reads as key=value or key:=JSON rather
// than JSON: an "=" after a key that does not open a JSON value.
func isPairWord(w string) bool {
	k, _, ok := strings.Cut(w, "=")
	k = strings.TrimSuffix(k, ":")
	return ok && k != "" && !strings.ContainsAny(k[:1], `{["`)
}

// readPair reads one key=value or key:=JSON word.
func readPair(w string, f ArgsForm) (argPair, error) {
	if !isPairWord(w) {
		return argPair{}, clierr.Usagef("%s is not key=value: give the %s arguments as one JSON object or as key=value words; %s", textsafe.QuoteArg(w), f.What, f.example())
	}
	k, text, _ := strings.Cut(w, "=")
	if !strings.HasSuffix(k, ":") {
		return argPair{key: k, text: text}, nil
	}
	k = strings.TrimSuffix(k, ":")
	if f.Strings {
		return argPair{}, clierr.Usagef("%s: prompt arguments are strings, so give them as %s=value, not :=", textsafe.QuoteArg(w), textsafe.QuoteArg(k))
	}
	var v any
	if err := json.Unmarshal([]byte(text), &v); err != nil {
		return argPair{}, clierr.Usagef("%s: after := comes a JSON value such as 3, true, [1,2] or {\"a\":1}: %v", textsafe.QuoteArg(w), JSONSyntaxProblem(err))
	}
	return argPair{key: k, raw: true, v: v}, nil
}

// Typed returns the arguments as a JSON object: a JSON object as it was
// given; key=text words typed by typeOf (the tool's input schema: "3" for
// an integer property is 3), key:=JSON words as their JSON value.
func (a Args) Typed(typeOf func(key, text string) any) map[string]any {
	if a.object != nil {
		return a.object
	}
	out := make(map[string]any, len(a.pairs))
	for _, p := range a.pairs {
		switch {
		case p.raw:
			out[p.key] = p.v
		case typeOf != nil:
			out[p.key] = typeOf(p.key, p.text)
		default:
			out[p.key] = p.text
		}
	}
	return out
}

// Strings returns the arguments as prompt arguments, which MCP defines as
// strings: key=value words as written, a JSON object's strings as they are
// and its other values as their JSON text.
func (a Args) Strings() map[string]string {
	if a.object != nil {
		return PromptArgs(a.object)
	}
	out := make(map[string]string, len(a.pairs))
	for _, p := range a.pairs {
		out[p.key] = p.text
	}
	return out
}
