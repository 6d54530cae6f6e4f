package model

import (
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// PermissionsKey holds the permission rules of managed, user and local
// settings (see Permissions).
const PermissionsKey = "permissions"

// ServersKey holds the servers of a configuration file, and of the local
// scope in the private state.
const ServersKey = "mcpServers"

// ReadPermissions reads "permissions": {"allow": [...], "deny": [...]}.
func ReadPermissions(f *File, probs []Problem) (Permissions, []Problem) {
	var p Permissions
	n := f.Root.Get(PermissionsKey)
	if n == nil || n.Kind == 'z' {
		return p, probs
	}
	d := jsondoc.Decoder{Doc: f.Doc}
	if n.Kind != '{' {
		return p, append(probs, f.ProblemAt("", jsondoc.Want(n, PermissionsKey, "an object")))
	}
	for _, k := range []string{"allow", "deny"} {
		v := n.Get(k)
		if v == nil {
			continue
		}
		s, e := d.Strs(v, PermissionsKey+"."+k)
		if e != nil {
			probs = append(probs, f.ProblemAt("", e))
			continue
		}
		if k == "allow" {
			p.Allow = s
		} else {
			p.Deny = s
		}
	}
	return p, probs
}
