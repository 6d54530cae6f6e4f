package registry

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/imports"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// SecretMode says what becomes of the value of a secret field.
type SecretMode int

const (
	// SecretsInStore (user and local scope): the value goes to mcpdeck's
	// secret store and the definition says ${secret:NAME}.
	SecretsInStore SecretMode = iota
	// SecretsFromEnv (the project's shared .mcp.json, which may not use the
	// store): the definition says ${NAME}, read from the environment of
	// whoever runs it; a literal value is refused.
	SecretsFromEnv
)

// ErrSecretInSharedFile is a literal secret for a file the project shares.
var ErrSecretInSharedFile = errors.New("a secret cannot be written into the project's shared .mcp.json")

// Secret is a value for mcpdeck's secret store, under Name.
type Secret struct {
	Name, Value string
	Field       string // the field it was given for, to say so
}

// varOnly is a value made only of ${VAR} references (after an optional
// auth scheme): a reference the person gave, not a secret to store.
var varOnly = regexp.MustCompile(`^((Bearer|Basic|Token) +)?(\$\{[^}]+\})+$`)

// Build turns the values of the plan's fields (by Field.ID; absent or ""
// means not given: the default applies) into a definition, and the secret
// values the definition refers to. A required field without a value is a
// *MissingError listing every such field.
func (p Plan) Build(values map[string]string, mode SecretMode) (model.ServerConfig, []Secret, error) {
	b := &builder{plan: p, values: values, mode: mode, used: map[string]bool{}, memo: map[string]piece{}}
	var cfg model.ServerConfig
	var err error
	switch {
	case p.Remote != nil:
		cfg, err = b.remote()
	case p.Bundle != nil:
		cfg, err = b.bundle()
	case p.NeedsBundle():
		err = errors.New("the MCP bundle was not fetched yet")
	default:
		cfg, err = b.pkg()
	}
	if err == nil && len(b.missing) > 0 {
		err = &MissingError{Fields: b.missing}
	}
	if err != nil {
		return model.ServerConfig{}, nil, err
	}
	return cfg, b.secrets, nil
}

// builder holds one Build's state.
type builder struct {
	plan    Plan
	values  map[string]string
	mode    SecretMode
	secrets []Secret
	used    map[string]bool // secret and variable names already taken
	missing []Field
	memo    map[string]piece // value's answers: a field used twice is one secret
}

// piece is a field's text for the definition, with whether it came from
// the person (or mcpdeck) rather than the server.json.
type piece struct {
	text    string
	trusted bool
	set     bool
}

// fieldByID finds a field of the plan.
func (b *builder) fieldByID(id string) (Field, bool) {
	for _, f := range b.plan.Fields {
		if f.ID == id {
			return f, true
		}
	}
	return Field{}, false
}

// value is what field id contributes: the person's value, else the
// default; a secret becomes a reference and its value a Secret. A field
// used in several places contributes the same piece to each.
func (b *builder) value(id string) (piece, error) {
	if v, ok := b.memo[id]; ok {
		return v, nil
	}
	v, err := b.valueOnce(id)
	if err == nil {
		b.memo[id] = v
	}
	return v, err
}

func (b *builder) valueOnce(id string) (piece, error) {
	f, ok := b.fieldByID(id)
	if !ok {
		return piece{}, nil
	}
	v := b.values[id]
	trusted := v != "" && v != f.Input.Default && !slices.Contains(f.Input.Choices, v)
	if v == "" {
		v = f.Input.Default
	}
	if f.Input.IsSecret && b.mode == SecretsFromEnv && (v == "" || trusted) {
		if trusted && !varOnly.MatchString(v) {
			return piece{}, fmt.Errorf("%w: %s is secret; give a reference to your environment instead (%s), or add the server to the user or local scope, where mcpdeck keeps it in your keychain",
				ErrSecretInSharedFile, f.Label(), f.flagWith("${"+b.secretName(f, false)+"}"))
		}
		if v == "" {
			ref := b.secretName(f, true)
			switch {
			case f.Input.IsRequired:
				return piece{text: "${" + ref + "}", trusted: true, set: true}, nil
			case f.Kind == FieldEnv:
				return piece{text: "${" + ref + ":-}", trusted: true, set: true}, nil
			}
			return piece{}, nil
		}
	}
	if v == "" {
		if f.Input.IsRequired {
			b.missing = append(b.missing, f)
		}
		return piece{}, nil
	}
	if err := f.check(v); err != nil {
		return piece{}, err
	}
	if f.Input.IsSecret && (!trusted || !varOnly.MatchString(v)) {
		name := b.secretName(f, true)
		b.secrets = append(b.secrets, Secret{Name: name, Value: v, Field: f.Label()})
		return piece{text: model.SecretReference(name), trusted: true, set: true}, nil
	}
	return piece{text: v, trusted: trusted, set: true}, nil
}

// secretName is the NAME of the field's ${secret:NAME} or ${NAME}: an env
// variable's own name, else the key in capitals, made unique when take.
func (b *builder) secretName(f Field, take bool) string {
	base := f.Key
	if f.Kind != FieldEnv {
		base = upperName(f.Key)
	}
	name := base
	for i := 2; b.used[name]; i++ {
		name = fmt.Sprintf("%s_%d", base, i)
	}
	if take {
		b.used[name] = true
	}
	return name
}

// upperName turns a header or argument name into a variable name
// ("X-Api-Key" → "X_API_KEY").
func upperName(key string) string {
	var sb strings.Builder
	for _, r := range key {
		switch {
		case r >= 'a' && r <= 'z':
			sb.WriteRune(r - 'a' + 'A')
		case r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_':
			sb.WriteRune(r)
		default:
			sb.WriteByte('_')
		}
	}
	s := sb.String()
	if s == "" || (s[0] >= '0' && s[0] <= '9') {
		s = "_" + s
	}
	return s
}

// render fills the {variables} of a fixed value from the server.json. It
// is unset when a variable it uses is unset.
func (b *builder) render(what, tpl string, vars map[string]Input) (piece, error) {
	var t tainted
	for rest := tpl; rest != ""; {
		i := strings.IndexByte(rest, '{')
		j := strings.IndexByte(rest[max(i, 0):], '}')
		if i < 0 || j < 0 {
			t.add(rest, false)
			break
		}
		name := rest[i+1 : i+j]
		if _, ok := vars[name]; !ok {
			t.add(rest[:i+j+1], false)
			rest = rest[i+j+1:]
			continue
		}
		t.add(rest[:i], false)
		v, err := b.value("var:" + name)
		if err != nil || !v.set {
			return piece{}, err
		}
		t.add(v.text, v.trusted)
		rest = rest[i+j+1:]
	}
	s, err := t.result(what)
	return piece{text: s, set: true}, err
}

// tainted builds a string remembering which bytes came from the
// server.json, so that its text cannot form a ${...} reference with what
// surrounds it.
type tainted struct {
	b       strings.Builder
	trusted []bool
}

func (t *tainted) add(s string, trusted bool) {
	t.b.WriteString(s)
	for range len(s) {
		t.trusted = append(t.trusted, trusted)
	}
}

func (t *tainted) result(what string) (string, error) {
	s := t.b.String()
	for i := 0; i+1 < len(s); i++ {
		if s[i] == '$' && s[i+1] == '{' && (!t.trusted[i] || !t.trusted[i+1]) {
			return "", fmt.Errorf("%w: %s would hold a ${...} reference made of the server.json's text, which would read your environment", ErrUnusable, what)
		}
	}
	return s, nil
}

// keyValue is one environment variable or header: a fixed value with its
// variables, or a field.
func (b *builder) keyValue(kind FieldKind, kv KeyValueInput) (piece, error) {
	if kv.Value != "" {
		return b.render(Field{Kind: kind, Key: kv.Name}.Label(), kv.Value, kv.Variables)
	}
	prefix := map[FieldKind]string{FieldEnv: "env:", FieldHeader: "header:"}[kind]
	return b.value(prefix + kv.Name)
}

// keyValues renders environment variables or headers: the map (nil when
// none is set) and the names set, in the server.json's order.
func (b *builder) keyValues(kind FieldKind, kvs []KeyValueInput) (map[string]string, []string, error) {
	var out map[string]string
	var names []string
	for _, kv := range kvs {
		v, err := b.keyValue(kind, kv)
		if err != nil {
			return nil, nil, err
		}
		if v.set {
			if out == nil {
				out = map[string]string{}
			}
			out[kv.Name] = v.text
			names = append(names, kv.Name)
		}
	}
	return out, names, nil
}

// remote builds an http or sse definition.
func (b *builder) remote() (model.ServerConfig, error) {
	r := b.plan.Remote
	t, _ := remoteType(r)
	u, err := b.render("the remote's URL", r.URL, r.Variables)
	if err != nil {
		return model.ServerConfig{}, err
	}
	if u.set {
		if err := imports.CheckURL(t, u.text); err != nil {
			return model.ServerConfig{}, fmt.Errorf("%w: %w", ErrUnusable, err)
		}
	}
	headers, _, err := b.keyValues(FieldHeader, r.Headers)
	return model.ServerConfig{Type: t, URL: u.text, Headers: headers}, err
}

// InstallLines are what the person is shown before the definition cfg,
// built from p with secrets, is written: Lines, the bundle's lines
// (BundleLines), and the secrets that go to the store, by name. Callers
// sanitize the lines.
func (p Plan) InstallLines(cfg model.ServerConfig, secrets []Secret) []string {
	out := append(Lines(cfg), p.BundleLines()...)
	if len(secrets) > 0 {
		out = append(out, "Secrets  "+SecretNames(secrets)+" go to mcpdeck's secret store (keychain), never into the file")
	}
	return out
}

// SecretNames lists secrets by name, comma-separated.
func SecretNames(secrets []Secret) string {
	names := make([]string, len(secrets))
	for i, s := range secrets {
		names[i] = s.Name
	}
	return strings.Join(names, ", ")
}

// Lines shows a built definition for people before it is written: its
// command line (textsafe.QuoteCommand) or URL, its
// working directory, then each
// environment variable and header, sorted. Secrets appear as the
// references the definition holds. Callers sanitize the lines.
func Lines(cfg model.ServerConfig) []string {
	var out []string
	if cfg.URL != "" {
		out = append(out, "URL      "+cfg.URL)
	} else {
		out = append(out, "Command  "+textsafe.QuoteCommand(cfg.Command, cfg.Args))
	}
	if cfg.Cwd != "" {
		out = append(out, "Cwd      "+cfg.Cwd)
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.Env)) {
		out = append(out, "Env      "+k+"="+cfg.Env[k])
	}
	for _, k := range slices.Sorted(maps.Keys(cfg.Headers)) {
		out = append(out, "Header   "+k+": "+cfg.Headers[k])
	}
	if cfg.Sandbox != nil {
		out = append(out, "Sandbox  "+cfg.Sandbox.Summary())
	}
	return out
}
