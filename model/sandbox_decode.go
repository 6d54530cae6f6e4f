package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/hostlist"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// decodeSandbox decodes the "sandbox" field: true is the default profile,
// false and null are none (nil), an object is a profile with additions.
// Like the rest of a definition it is strict about what it knows (a
// misspelt profile or a host with a path would silently widen or break
// the sandbox) and keeps unknown fields in Extra.
func decodeSandbox(d jsondoc.Decoder, n *jsondoc.Node, prefix string) (*Sandbox, *jsondoc.FieldError) {
	switch n.Kind {
	case 'z':
		return nil, nil
	case 'b':
		if string(d.Doc[n.Start:n.End]) == "true" {
			return DefaultSandbox(), nil
		}
		return nil, nil
	case '{':
	default:
		return nil, jsondoc.Want(n, prefix, "true, false or an object")
	}
	if len(n.Dups) > 0 {
		return nil, jsondoc.DupError(n, prefix)
	}
	s := DefaultSandbox()
	for _, m := range n.Members {
		f := jsondoc.JoinField(prefix, m.Key)
		var err *jsondoc.FieldError
		switch m.Key {
		case "profile":
			s.Profile, err = decodeProfile(d, m.Val, f)
		case "read":
			s.Read, err = decodePaths(d, m.Val, f)
		case "write":
			s.Write, err = decodePaths(d, m.Val, f)
		case "network":
			s.Network, err = decodeNetwork(d, m.Val, f)
		case "sockets":
			s.Sockets, err = decodePaths(d, m.Val, f)
		default:
			if s.Extra == nil {
				s.Extra = map[string]json.RawMessage{}
			}
			s.Extra[m.Key] = d.Raw(m.Val)
		}
		if err != nil {
			return nil, err
		}
	}
	return s, nil
}

// decodeProfile decodes a profile name; null is the default.
func decodeProfile(d jsondoc.Decoder, n *jsondoc.Node, f string) (string, *jsondoc.FieldError) {
	p, err := d.Str(n, f)
	switch {
	case err != nil:
		return "", err
	case p == "":
		return SandboxProfileDefault, nil
	case !slices.Contains(SandboxProfiles(), p):
		return "", &jsondoc.FieldError{Field: f, Offset: n.Start, Msg: fmt.Sprintf("unknown profile %q (use %s)", p, strings.Join(SandboxProfiles(), " or "))}
	}
	return p, nil
}

// decodePaths decodes a list of paths; an empty one is an error (it would
// mean the whole filesystem to some readers).
func decodePaths(d jsondoc.Decoder, n *jsondoc.Node, f string) ([]string, *jsondoc.FieldError) {
	paths, err := d.Strs(n, f)
	if err != nil {
		return nil, err
	}
	for i, p := range paths {
		if strings.TrimSpace(p) == "" {
			return nil, &jsondoc.FieldError{Field: fmt.Sprintf("%s[%d]", f, i), Offset: n.Elems[i].Start, Msg: "must not be empty"}
		}
	}
	return paths, nil
}

// decodeNetwork decodes "none", "all" or a list of host names.
func decodeNetwork(d jsondoc.Decoder, n *jsondoc.Node, f string) (SandboxNetwork, *jsondoc.FieldError) {
	switch n.Kind {
	case 'z':
		return SandboxNetwork{}, nil
	case 's':
		switch n.Str {
		case "none":
			return SandboxNetwork{}, nil
		case "all":
			return SandboxNetwork{All: true}, nil
		}
		return SandboxNetwork{}, &jsondoc.FieldError{Field: f, Offset: n.Start, Msg: fmt.Sprintf(`must be "none", "all" or a list of hosts, got %q`, n.Str)}
	case '[':
	default:
		return SandboxNetwork{}, jsondoc.Want(n, f, `"none", "all" or a list of hosts`)
	}
	hosts, err := d.Strs(n, f)
	if err != nil {
		return SandboxNetwork{}, err
	}
	for i, h := range hosts {
		if msg := CheckSandboxHost(h); msg != "" {
			return SandboxNetwork{}, &jsondoc.FieldError{Field: fmt.Sprintf("%s[%d]", f, i), Offset: n.Elems[i].Start, Msg: msg}
		}
	}
	return SandboxNetwork{Hosts: hosts}, nil
}

// CheckSandboxHost says what is wrong with h as an entry of a sandbox's
// network list, "" when nothing is. The grammar is model/hostlist's, the
// one the proxy (transports/egress) reads: a host name, "*.name" or an
// IP literal, with an optional ":port".
func CheckSandboxHost(h string) string {
	if strings.TrimSpace(h) == "" {
		return "must not be empty"
	}
	if _, err := hostlist.ParseEntry(h); err != nil {
		return err.Error()
	}
	return ""
}
