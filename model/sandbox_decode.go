package model

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

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
// network list, "" when nothing is: a host name or IP address in lower
// case, optionally starting with "*." (any name under it, not the name
// itself) and optionally ending with ":PORT" ("[::1]:8080" for an IPv6
// address with a port); no scheme, path or other wildcard. The proxy
// (transports/egress) reads the same forms.
func CheckSandboxHost(h string) string {
	bad := fmt.Sprintf("host %q is not a host name or address (no scheme or path)", h)
	name, port := h, ""
	switch {
	case strings.HasPrefix(h, "["):
		end := strings.Index(h, "]")
		if end < 0 {
			return bad
		}
		name, port = h[1:end], strings.TrimPrefix(h[end+1:], ":")
		if h[end+1:] != "" && !strings.HasPrefix(h[end+1:], ":") {
			return bad
		}
	case strings.Count(h, ":") == 1:
		name, port, _ = strings.Cut(h, ":")
	}
	if strings.Trim(port, "0123456789") != "" {
		return bad
	}
	if port != "" || strings.HasSuffix(h, ":") {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 {
			return fmt.Sprintf("host %q: the port must be a number from 1 to 65535", h)
		}
	}
	base := strings.TrimPrefix(name, "*.")
	switch {
	case h == "":
		return "must not be empty"
	case h != strings.ToLower(h):
		return fmt.Sprintf("host %q must be in lower case", h)
	case strings.Contains(base, "*"):
		return fmt.Sprintf(`host %q: a wildcard may only start it, as "*.example.com"`, h)
	case base == "" || strings.HasPrefix(base, ".") || strings.HasSuffix(base, "."):
		return bad
	}
	for _, r := range base {
		ok := r == '.' || r == '-' || r == ':' || (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9')
		if !ok {
			return bad
		}
	}
	return ""
}
