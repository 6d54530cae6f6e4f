package policy

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/hostlist"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// maximumKey is the member of a sandboxedMcpServers rule that bounds the
// sandbox it requires:
//
//	{"serverCommand": ["*"], "maximum": {"write": ["~/work"], "network": ["*.github.com"]}}
//
// Without it any sandbox satisfies the rule (even one that writes the
// home directory and reaches every host); with it a definition may open
// only what it lists: the write-project profile only when "profile" says
// so, write paths only inside a listed one, hosts only a listed entry
// covers ("all" only under "all"), unix sockets only those listed. What
// it does not name, the definition may not add.
const maximumKey = "maximum"

// sandboxBound is a rule's maximum, its paths absolute ("~" expanded).
type sandboxBound struct {
	writeProject bool
	write        []string
	all          bool
	hosts        []hostlist.Entry
	sockets      []string
}

// beyond says what of box (a definition's sandbox, its paths placed)
// goes past b, "" when nothing does. real resolves a path's symbolic
// links (the path itself when it cannot): a write path is judged as what
// it reaches, and so is each bound.
func (b *sandboxBound) beyond(box *model.Sandbox, real func(string) string) string {
	if real == nil {
		real = func(p string) string { return p }
	}
	if box.Profile == model.SandboxProfileWriteProject && !b.writeProject {
		return "the write-project profile"
	}
	for _, w := range box.Write {
		if !slices.ContainsFunc(b.write, func(max string) bool { return inside(real(w), real(max)) }) {
			return "write " + strconv.Quote(w)
		}
	}
	switch {
	case box.Network.All && !b.all:
		return "network all"
	case !b.all:
		for _, h := range box.Network.Hosts {
			e, err := hostlist.ParseEntry(h)
			if err != nil || !slices.ContainsFunc(b.hosts, func(max hostlist.Entry) bool { return covers(max, e) }) {
				return "network " + strconv.Quote(h)
			}
		}
	}
	for _, s := range box.Sockets {
		if !slices.ContainsFunc(b.sockets, func(max string) bool { return real(s) == real(max) }) {
			return "socket " + strconv.Quote(s)
		}
	}
	return ""
}

// inside reports whether path is dir or below it.
func inside(path, dir string) bool {
	rel, err := filepath.Rel(dir, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// covers reports whether the bound's entry max allows everything the
// definition's entry e does: the same host, or a name (or a narrower
// wildcard) below max's wildcard; on max's port, or any port when max
// names none.
func covers(max, e hostlist.Entry) bool {
	if p := max.Port(); p != 0 && e.Port() != p {
		return false
	}
	switch {
	case e.Wildcard() && !max.Wildcard():
		return false
	case e.Wildcard():
		return e.Host().Name() == max.Host().Name() || strings.HasSuffix(e.Host().Name(), "."+max.Host().Name())
	}
	return max.Matches(e.Host(), max.Port())
}

// decodeBound decodes a rule's maximum: profile ("default" or
// "write-project"), write (paths, absolute or under "~"), network
// ("none", "all" or host entries) and sockets (paths). Strict: an
// unknown field, a relative path or a bad host is an error, so a typo
// never widens what a rule allows.
func decodeBound(d jsondoc.Decoder, n *jsondoc.Node, field, home string) (*sandboxBound, *jsondoc.FieldError) {
	if n.Kind != '{' {
		return nil, jsondoc.Want(n, field, "an object")
	}
	if len(n.Dups) > 0 {
		return nil, jsondoc.DupError(n, field)
	}
	b := &sandboxBound{}
	paths := func(m *jsondoc.Member, f string) ([]string, *jsondoc.FieldError) {
		list, err := d.Strs(m.Val, f)
		if err != nil {
			return nil, err
		}
		out := make([]string, 0, len(list))
		for i, p := range list {
			switch {
			case p == "~":
				p = home
			case strings.HasPrefix(p, "~/"):
				p = filepath.Join(home, p[2:])
			case !filepath.IsAbs(p):
				return nil, &jsondoc.FieldError{Field: fmt.Sprintf("%s[%d]", f, i), Offset: m.Val.Elems[i].Start, Msg: "must be an absolute path or start with ~/"}
			}
			out = append(out, filepath.Clean(p))
		}
		return out, nil
	}
	for i := range n.Members {
		m := &n.Members[i]
		f := jsondoc.JoinField(field, m.Key)
		var err *jsondoc.FieldError
		switch m.Key {
		case "profile":
			var p string
			p, err = d.Str(m.Val, f)
			switch {
			case err != nil:
			case p == model.SandboxProfileWriteProject:
				b.writeProject = true
			case p != model.SandboxProfileDefault:
				err = &jsondoc.FieldError{Field: f, Offset: m.Val.Start, Msg: fmt.Sprintf("unknown profile %q (use %s)", p, strings.Join(model.SandboxProfiles(), " or "))}
			}
		case "write":
			b.write, err = paths(m, f)
		case "sockets":
			b.sockets, err = paths(m, f)
		case "network":
			err = b.decodeNetwork(d, m.Val, f)
		default:
			err = &jsondoc.FieldError{Field: f, Offset: m.KeyStart, Msg: "unknown field (use profile, write, network or sockets)"}
		}
		if err != nil {
			return nil, err
		}
	}
	return b, nil
}

// decodeNetwork reads the bound's network: "none", "all" or entries.
func (b *sandboxBound) decodeNetwork(d jsondoc.Decoder, n *jsondoc.Node, f string) *jsondoc.FieldError {
	if n.Kind == 's' {
		switch n.Str {
		case "none":
			return nil
		case "all":
			b.all = true
			return nil
		}
		return &jsondoc.FieldError{Field: f, Offset: n.Start, Msg: fmt.Sprintf(`must be "none", "all" or a list of hosts, got %q`, n.Str)}
	}
	hosts, err := d.Strs(n, f)
	if err != nil {
		return err
	}
	for i, h := range hosts {
		e, perr := hostlist.ParseEntry(h)
		if perr != nil {
			return &jsondoc.FieldError{Field: fmt.Sprintf("%s[%d]", f, i), Offset: n.Elems[i].Start, Msg: perr.Error()}
		}
		b.hosts = append(b.hosts, e)
	}
	return nil
}
