package sandbox

import (
	"path/filepath"
	"strings"
)

// gitConfigMax is how much of a git configuration file is read.
const gitConfigMax = 64 << 10

// hooksPaths are the core.hooksPath directories of the repository at
// root, relative to it: set in its .git/config or in the person's own git
// configuration (Facts.GitConfigs), following include.path and every
// includeIf's path (whether its condition holds or not: protecting one
// directory too many is harmless). A relative hooksPath is the
// repository's own directory (.husky, .githooks); an absolute one counts
// when it is inside root.
func (r *resolver) hooksPaths(root string) []string {
	if filepath.Base(root) == ".git" || r.f.ReadHead == nil {
		return nil
	}
	files := append([]string{filepath.Join(root, ".git", "config")}, r.f.GitConfigs...)
	var out []string
	for _, f := range files {
		for _, v := range r.gitValues(f, "core.hookspath", 0) {
			switch {
			case v == "":
				continue
			case v == "~" || strings.HasPrefix(v, "~/"):
				v = filepath.Join(r.f.Home, strings.TrimPrefix(v, "~"))
			case !filepath.IsAbs(v):
				v = filepath.Join(root, v)
			}
			if rel, err := filepath.Rel(root, filepath.Clean(v)); err == nil && within(filepath.Clean(v), root) && rel != "." {
				out = appendNew(out, rel)
			}
		}
	}
	return out
}

// gitValues are the values of key (section.name, lower case) in the git
// configuration file at path and the files it includes, depth levels of
// inclusion deep so far.
func (r *resolver) gitValues(path, key string, depth int) []string {
	if depth > 5 {
		return nil
	}
	b, err := r.f.ReadHead(path, gitConfigMax)
	if err != nil {
		return nil
	}
	var out []string
	for _, kv := range parseGitConfig(string(b)) {
		switch {
		case kv.key == key:
			out = append(out, kv.value)
		case (kv.section == "include" || kv.section == "includeif") && kv.name == "path" && kv.value != "":
			inc := kv.value
			switch {
			case inc == "~" || strings.HasPrefix(inc, "~/"):
				inc = filepath.Join(r.f.Home, strings.TrimPrefix(inc, "~"))
			case !filepath.IsAbs(inc):
				inc = filepath.Join(filepath.Dir(path), inc)
			}
			out = append(out, r.gitValues(inc, key, depth+1)...)
		}
	}
	return out
}

// gitEntry is one variable of a git configuration file: section (lower
// case, without its subsection), name (lower case), key
// (section.name) and value.
type gitEntry struct{ section, name, key, value string }

// parseGitConfig reads git's configuration syntax well enough to find a
// variable: [section] and [section "sub"] headers (a variable may follow
// on the same line), name = value with quotes, escapes and comments, a
// name alone (true).
func parseGitConfig(doc string) []gitEntry {
	var out []gitEntry
	section := ""
	for _, line := range strings.Split(doc, "\n") {
		line = strings.TrimSpace(line)
		if strings.HasPrefix(line, "[") {
			end := strings.IndexByte(line, ']')
			if end < 0 {
				continue
			}
			head := strings.TrimSpace(line[1:end])
			name, _, _ := strings.Cut(head, " ")
			name, _, _ = strings.Cut(name, "\"")
			name, _, _ = strings.Cut(name, ".")
			section = strings.ToLower(strings.TrimSpace(name))
			line = strings.TrimSpace(line[end+1:])
		}
		if line == "" || line[0] == '#' || line[0] == ';' || section == "" {
			continue
		}
		name, value, hasValue := strings.Cut(line, "=")
		name = strings.ToLower(strings.TrimSpace(name))
		if !hasValue {
			name, _, _ = strings.Cut(name, "#")
			name, _, _ = strings.Cut(name, ";")
			name = strings.TrimSpace(name)
			value = "true"
		} else {
			value = gitValue(value)
		}
		out = append(out, gitEntry{section: section, name: name, key: section + "." + name, value: value})
	}
	return out
}

// gitValue is a configuration value as git reads it: quotes removed,
// \" \\ \n \t unescaped, a comment outside quotes cut, surrounding space
// trimmed.
func gitValue(raw string) string {
	var b strings.Builder
	quoted := false
	raw = strings.TrimSpace(raw)
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case c == '"':
			quoted = !quoted
		case c == '\\' && i+1 < len(raw):
			i++
			switch raw[i] {
			case 'n':
				b.WriteByte('\n')
			case 't':
				b.WriteByte('\t')
			default:
				b.WriteByte(raw[i])
			}
		case (c == '#' || c == ';') && !quoted:
			return strings.TrimSpace(b.String())
		default:
			b.WriteByte(c)
		}
	}
	return strings.TrimSpace(b.String())
}
