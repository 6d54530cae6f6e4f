package registry

import (
	"fmt"
	"net/url"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

var (
	sha256Hex = regexp.MustCompile(`^[A-Fa-f0-9]{64}$`)
	optionKey = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9_-]{0,63}$`)
)

// serverTypes are the manifest server types mcpdeck runs (by their
// mcp_config).
var serverTypes = []string{"node", "python", "binary", "uv"}

// NeedsBundle reports whether the plan is an MCP bundle not fetched yet
// (Bundles.Fetch): its fields are known only from its manifest.
func (p Plan) NeedsBundle() bool {
	return p.Package != nil && p.Package.RegistryType == "mcpb" && p.Bundle == nil
}

// checkBundlePackage checks an mcpb package before anything is
// downloaded: an https URL (plain http only to this machine), a
// fileSha256 to check the download against, a pinned version, and no
// runtime arguments (a bundle runs the command its manifest gives).
func (p *Plan) checkBundlePackage() error {
	pk := p.Package
	if err := checkText("the bundle's URL", pk.Identifier); err != nil {
		return err
	}
	u, err := url.Parse(pk.Identifier)
	if err != nil || !u.IsAbs() {
		return fmt.Errorf("%w: the mcpb package's identifier %q is not a URL", ErrUnusable, pk.Identifier)
	}
	if err := checkBundleURL(u); err != nil {
		return fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	switch {
	case pk.FileSHA256 == "":
		return fmt.Errorf("%w: the bundle %s has no fileSha256; mcpdeck installs a bundle only when it can check what it downloaded", ErrUnusable, pk.Identifier)
	case !sha256Hex.MatchString(pk.FileSHA256):
		return fmt.Errorf("%w: the bundle %s has the fileSha256 %q, not 64 hexadecimal digits", ErrUnusable, pk.Identifier, pk.FileSHA256)
	case len(pk.RuntimeArguments) > 0:
		return fmt.Errorf("%w: the bundle %s has runtime arguments, but a bundle runs the command its manifest gives", ErrUnusable, pk.Identifier)
	}
	if pk.Version != "" {
		return checkVersion("the bundle "+pk.Identifier, pk.Version)
	}
	return checkVersion("server "+p.Entry.Name, p.Entry.Version)
}

// osWords are words in a bundle's file name that say which system it is
// built for.
var osWords = map[string][]string{
	"darwin": {"darwin", "macos", "mac", "osx", "apple"},
	"win32":  {"windows", "win32", "win64", "win"},
	"linux":  {"linux"},
}

// forAnotherSystem reports whether an mcpb package's file name names
// only systems other than platform ("x-darwin-arm64.mcpb" on linux): a
// hint for choosing among several bundles before downloading one. The
// manifest decides once it is read.
func forAnotherSystem(identifier, platform string) bool {
	name := strings.ToLower(path.Base(identifier))
	words := strings.FieldsFunc(name, func(r rune) bool { return (r < 'a' || r > 'z') && (r < '0' || r > '9') })
	other := false
	for sys, list := range osWords {
		for _, w := range words {
			if slices.Contains(list, w) {
				if sys == platform {
					return false
				}
				other = true
			}
		}
	}
	return other
}

// withBundle checks the bundle's manifest and returns p with the bundle
// and the fields its user_config asks for. Nothing here reads files: the
// zip was checked and its manifest read by Fetch.
func (p Plan) withBundle(bd *Bundle) (Plan, error) {
	m := bd.Manifest
	what := "the bundle " + bd.URL
	if ps := m.Compatibility.Platforms; len(ps) > 0 && !slices.Contains(ps, bd.platform) {
		return p, fmt.Errorf("%w: %s is for %s, not %s", ErrUnusable, what, strings.Join(ps, ", "), bd.platform)
	}
	if !slices.Contains(serverTypes, m.Server.Type) {
		return p, fmt.Errorf("%w: %s has the server type %q (mcpdeck runs %s)", ErrUnusable, what, m.Server.Type, strings.Join(serverTypes, ", "))
	}
	if m.Server.MCPConfig == nil {
		return p, fmt.Errorf("%w: %s gives no mcp_config, the command that runs its server", ErrUnusable, what)
	}
	q := p
	q.Bundle = bd
	q.Fields = slices.Clone(p.Fields)
	declared := map[string]bool{}
	if len(m.UserConfig) > maxFields {
		return p, fmt.Errorf("%w: %s asks for more than %d settings", ErrUnusable, what, maxFields)
	}
	for _, o := range m.UserConfig {
		f, err := bd.optionField(o)
		if err != nil {
			return p, err
		}
		declared[o.Key] = true
		q.add(f)
	}
	mc := m.config(bd.platform)
	if err := checkMCPConfig(mc, declared); err != nil {
		return p, fmt.Errorf("%w: the mcp_config of %s: %w", ErrUnusable, what, err)
	}
	exec, err := bd.execPath(mc.Command, m.Server.Type)
	if err != nil {
		return p, err
	}
	bd.Exec = exec
	return q, nil
}

// config is the mcp_config for platform: its override's command and
// arguments replace the base ones, its env entries are added.
func (m Manifest) config(platform string) MCPConfig {
	c := *m.Server.MCPConfig
	o, ok := c.PlatformOverrides[platform]
	if !ok {
		return c
	}
	if o.Command != "" {
		c.Command = o.Command
	}
	if o.Args != nil {
		c.Args = o.Args
	}
	if o.Env != nil {
		env := make(map[string]string, len(c.Env)+len(o.Env))
		for k, v := range c.Env {
			env[k] = v
		}
		for k, v := range o.Env {
			env[k] = v
		}
		c.Env = env
	}
	return c
}

// checkMCPConfig checks the command, arguments and environment a
// manifest gives: text a config file can hold, environment variable
// names, and only the ${...} variables a bundle may use, user_config
// ones declared.
func checkMCPConfig(mc MCPConfig, declared map[string]bool) error {
	if strings.TrimSpace(mc.Command) == "" {
		return fmt.Errorf("no command")
	}
	if len(mc.Args) > maxFields || len(mc.Env) > maxFields {
		return fmt.Errorf("more than %d arguments or environment variables", maxFields)
	}
	if err := checkTemplate("its command", mc.Command, declared); err != nil {
		return err
	}
	for i, a := range mc.Args {
		if err := checkTemplate(fmt.Sprintf("argument %d", i+1), a, declared); err != nil {
			return err
		}
	}
	for k, v := range mc.Env {
		if !envKey.MatchString(k) || len(k) > 256 {
			return fmt.Errorf("%q is not a valid name for an environment variable", k)
		}
		if err := checkTemplate("env "+k, v, declared); err != nil {
			return err
		}
	}
	return nil
}

// dirVariables are the ${...} names of directories a manifest may use,
// in defaults as well as in its mcp_config.
var dirVariables = []string{"HOME", "DESKTOP", "DOCUMENTS", "DOWNLOADS", "pathSeparator", "/"}

// checkTemplate is checkText for text that may hold the variables a
// bundle may use: ${__dirname}, the directories, and ${user_config.KEY}
// for a KEY in declared (nil: none, as in a default). Any other ${...}
// would read the person's environment.
func checkTemplate(what, s string, declared map[string]bool) error {
	var stripped strings.Builder
	rest := s
	for {
		i := strings.Index(rest, "${")
		if i < 0 {
			stripped.WriteString(rest)
			break
		}
		j := strings.IndexByte(rest[i:], '}')
		if j < 0 {
			return fmt.Errorf("%w: %s holds an unclosed ${", ErrUnusable, what)
		}
		name := rest[i+2 : i+j]
		key, isOption := strings.CutPrefix(name, "user_config.")
		ok := slices.Contains(dirVariables, name) || (declared != nil && name == "__dirname") || (isOption && declared[key])
		if !ok {
			return fmt.Errorf("%w: %s holds ${%s}, which mcpdeck would take from your environment", ErrUnusable, what, name)
		}
		stripped.WriteString(rest[:i] + "x")
		rest = rest[i+j+1:]
	}
	return checkText(what, stripped.String())
}

// optionField is the field asking for one user_config setting. Its
// default may use the directory variables, filled here.
func (bd *Bundle) optionField(o UserOption) (Field, error) {
	what := "setting " + o.Key
	if !optionKey.MatchString(o.Key) {
		return Field{}, fmt.Errorf("%w: the bundle %s has a setting named %q", ErrUnusable, bd.URL, o.Key)
	}
	format := map[string]string{"string": "string", "number": "number", "boolean": "boolean", "directory": "filepath", "file": "filepath"}[o.Type]
	if format == "" {
		return Field{}, fmt.Errorf("%w: %s of the bundle %s has the type %q", ErrUnusable, what, bd.URL, o.Type)
	}
	def, err := o.defaultText(string(filepath.ListSeparator))
	if err != nil {
		return Field{}, fmt.Errorf("%w: %w", ErrUnusable, err)
	}
	if err := checkTemplate(what, def, nil); err != nil {
		return Field{}, err
	}
	desc := strings.TrimSpace(o.Title + ": " + o.Description)
	if o.Multiple && format == "filepath" {
		desc += fmt.Sprintf(" (several: separate them with %q)", filepath.ListSeparator)
	}
	if len(desc) > maxText {
		desc = strings.ToValidUTF8(desc[:maxText], "") + "…"
	}
	in := Input{Description: desc, IsRequired: o.Required, IsSecret: o.Sensitive, Format: format, Default: bd.fill(def), Min: o.Min, Max: o.Max}
	return Field{ID: "user:" + o.Key, Kind: FieldUserConfig, Key: o.Key, Input: in}, nil
}

// dirs are the values of the directory variables and ${__dirname}.
func (bd *Bundle) dirs() map[string]string {
	sep := string(filepath.Separator)
	return map[string]string{
		"HOME": bd.home, "DESKTOP": filepath.Join(bd.home, "Desktop"), "DOCUMENTS": filepath.Join(bd.home, "Documents"),
		"DOWNLOADS": filepath.Join(bd.home, "Downloads"), "pathSeparator": sep, "/": sep, "__dirname": bd.Dir,
	}
}

// fill replaces the directory variables in checked text (a default).
func (bd *Bundle) fill(s string) string {
	dirs := bd.dirs()
	var b strings.Builder
	for rest := s; ; {
		i := strings.Index(rest, "${")
		if i < 0 {
			b.WriteString(rest)
			return b.String()
		}
		j := strings.IndexByte(rest[i:], '}')
		v, ok := dirs[rest[i+2:i+j]]
		if !ok {
			v = rest[i : i+j+1]
		}
		b.WriteString(rest[:i] + v)
		rest = rest[i+j+1:]
	}
}

// execPath is the file in the bundle the command runs, slash separated:
// the command under ${__dirname}, or a relative path (both are resolved
// against the bundle's directory); "" for a program found on PATH or an
// absolute path. For a binary on Windows ".exe" is added, as MCPB hosts
// do. The file must be in the bundle.
func (bd *Bundle) execPath(command, serverType string) (string, error) {
	rel := ""
	for _, prefix := range []string{"${__dirname}/", "${__dirname}${/}", "${__dirname}${pathSeparator}"} {
		if r, ok := strings.CutPrefix(command, prefix); ok {
			rel = r
		}
	}
	if rel == "" && !strings.Contains(command, "${") && strings.Contains(command, "/") && !path.IsAbs(command) && !filepath.IsAbs(command) {
		rel = command
	}
	if rel == "" || strings.Contains(rel, "${") {
		return "", nil
	}
	rel = path.Clean(rel)
	if bd.platform == "win32" && serverType == "binary" && path.Ext(rel) == "" {
		rel += ".exe"
	}
	if !bd.files[rel] {
		return "", fmt.Errorf("%w: the bundle %s runs %s, which it does not hold", ErrUnusable, bd.URL, rel)
	}
	return rel, nil
}

// BundleLines say what a plan's bundle is, where it came from and where
// it goes, for people before anything is written (after Lines). The
// manifest's words are the bundle's own: callers sanitize the lines.
func (p Plan) BundleLines() []string {
	bd := p.Bundle
	if bd == nil {
		return nil
	}
	m := bd.Manifest
	name := m.DisplayName
	if name == "" {
		name = m.Name
	}
	line := "Bundle   " + short(name) + " " + short(m.Version)
	if m.Author.Name != "" {
		line += " by " + short(m.Author.Name)
	}
	where := "unpacked into " + bd.Dir
	if bd.Reused {
		where = "already unpacked in " + bd.Dir + " (same SHA-256), used as it is"
	}
	return []string{line, "         from " + bd.URL + ", SHA-256 " + bd.SHA256 + " checked", "         " + where}
}

// short cuts a manifest's word for one line.
func short(s string) string {
	if r := []rune(s); len(r) > 80 {
		return string(r[:80]) + "…"
	}
	return s
}
