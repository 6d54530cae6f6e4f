// Package skillmd reads and checks the files of an MCP skill before mcpdeck
// loads it: the YAML front matter of its SKILL.md (the fields skill authors
// write, not all of YAML), compared field by field with the server's list
// entry, and each file's size and sha256 digest.
package skillmd

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// errNoFrontmatter is a SKILL.md that does not begin with a --- block.
var errNoFrontmatter = errors.New("it does not begin with a --- frontmatter block")

// frontValue is one top-level frontmatter field: a scalar's text, or a
// nested value (mapping, sequence, flow collection) kept as complex, whose
// content is not compared.
type frontValue struct {
	text    string
	complex bool
	plain   bool // an unquoted scalar: may stand for a number, bool or null
}

// parseFrontmatter reads the top-level fields of a SKILL.md's YAML
// frontmatter: plain, quoted and block (| and >) scalars; nested values are
// recognised but not interpreted. It accepts what skill authors write, not
// all of YAML, and refuses what it cannot read rather than guess.
func parseFrontmatter(doc string) (map[string]frontValue, error) {
	doc = strings.TrimPrefix(doc, "\ufeff")
	doc = strings.ReplaceAll(doc, "\r\n", "\n")
	rest, ok := strings.CutPrefix(doc, "---\n")
	if !ok {
		return nil, errNoFrontmatter
	}
	var block []string
	closed := false
	for line := range strings.SplitSeq(rest, "\n") {
		if strings.TrimRight(line, " \t") == "---" {
			closed = true
			break
		}
		block = append(block, line)
	}
	if !closed {
		return nil, errors.New("its frontmatter block is not closed with ---")
	}
	out := map[string]frontValue{}
	for i := 0; i < len(block); {
		line := block[i]
		i++
		if strings.TrimSpace(line) == "" || strings.HasPrefix(strings.TrimSpace(line), "#") {
			continue
		}
		if line[0] == ' ' || line[0] == '\t' {
			return nil, fmt.Errorf("frontmatter line %q is indented where a field was expected", line)
		}
		key, val, ok := strings.Cut(line, ":")
		if !ok || strings.TrimSpace(key) == "" || (val != "" && val[0] != ' ' && val[0] != '\t') {
			return nil, fmt.Errorf("frontmatter line %q is not a field", line)
		}
		key = strings.TrimSpace(key)
		if _, dup := out[key]; dup {
			return nil, fmt.Errorf("frontmatter field %q appears twice", key)
		}
		// the indented lines that follow belong to this field
		var more []string
		for i < len(block) && (strings.TrimSpace(block[i]) == "" || block[i][0] == ' ' || block[i][0] == '\t') {
			more = append(more, block[i])
			i++
		}
		v, err := frontScalar(strings.TrimSpace(val), more)
		if err != nil {
			return nil, fmt.Errorf("frontmatter field %q: %w", key, err)
		}
		out[key] = v
	}
	return out, nil
}

// frontScalar reads one field's value from the rest of its line and the
// indented lines that follow it.
func frontScalar(val string, more []string) (frontValue, error) {
	for len(more) > 0 && strings.TrimSpace(more[len(more)-1]) == "" {
		more = more[:len(more)-1]
	}
	switch {
	case val == "" || val[0] == '[' || val[0] == '{' || val[0] == '&' || val[0] == '!':
		return frontValue{complex: true}, nil
	case val[0] == '|' || val[0] == '>':
		return blockScalar(val, more), nil
	case len(more) > 0:
		if val[0] == '"' || val[0] == '\'' {
			return frontValue{}, errors.New("multi-line quoted text is not supported")
		}
		parts := []string{val}
		for _, m := range more {
			parts = append(parts, strings.TrimSpace(m))
		}
		return frontValue{text: strings.Join(parts, " "), plain: true}, nil
	case val[0] == '"' || val[0] == '\'':
		return quotedScalar(val)
	}
	if i := strings.Index(val, " #"); i >= 0 {
		val = strings.TrimSpace(val[:i])
	}
	return frontValue{text: val, plain: true}, nil
}

// quotedScalar reads a single- or double-quoted scalar that ends on its
// line, optionally followed by a comment.
func quotedScalar(val string) (frontValue, error) {
	q := val[0]
	end := -1
	for i := 1; i < len(val); i++ {
		switch {
		case q == '"' && val[i] == '\\':
			i++
		case val[i] == q && q == '\'' && i+1 < len(val) && val[i+1] == '\'':
			i++
		case val[i] == q:
			end = i
		}
		if end >= 0 {
			break
		}
	}
	if end < 0 {
		return frontValue{}, errors.New("the quoted text is not closed")
	}
	if tail := strings.TrimSpace(val[end+1:]); tail != "" && tail[0] != '#' {
		return frontValue{}, errors.New("text follows the closing quote")
	}
	if q == '\'' {
		return frontValue{text: strings.ReplaceAll(val[1:end], "''", "'")}, nil
	}
	s, err := strconv.Unquote(val[:end+1])
	if err != nil {
		return frontValue{}, errors.New("the double-quoted text has an escape mcpdeck cannot read")
	}
	return frontValue{text: s}, nil
}

// blockScalar reads a | (literal) or > (folded) block with clip, strip (-)
// or keep (+) chomping; indentation is that of its first line.
func blockScalar(head string, lines []string) frontValue {
	indent := -1
	var body []string
	for _, l := range lines {
		if strings.TrimSpace(l) == "" {
			body = append(body, "")
			continue
		}
		if indent < 0 {
			indent = len(l) - len(strings.TrimLeft(l, " \t"))
		}
		body = append(body, l[min(indent, len(l)-len(strings.TrimLeft(l, " \t"))):])
	}
	var s string
	if head[0] == '|' {
		s = strings.Join(body, "\n")
	} else {
		var b strings.Builder
		for i, l := range body {
			switch {
			case i == 0:
			case l == "":
				b.WriteByte('\n')
			case body[i-1] == "":
			default:
				b.WriteByte(' ')
			}
			b.WriteString(l)
		}
		s = b.String()
	}
	if strings.Contains(head, "-") || s == "" {
		return frontValue{text: s}
	}
	return frontValue{text: s + "\n"}
}
