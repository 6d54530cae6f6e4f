package model

import (
	"fmt"
	"slices"
)

// RecordToolDenied adds (deny true) or removes the permissions.deny rule
// exposedName in the private state file of the project at root.
func RecordToolDenied(file, root, exposedName string, deny bool) error {
	return EditState(file, root, func(f *File) ([]byte, error) {
		p, probs := ReadPermissions(f, nil)
		if len(probs) > 0 {
			return nil, fmt.Errorf("%w: %s", ErrInvalid, probs[0].Error())
		}
		rules := slices.Clone(p.Deny)
		has := slices.Contains(rules, exposedName)
		switch {
		case deny && !has:
			rules = append(rules, exposedName)
		case !deny && has:
			rules = slices.DeleteFunc(rules, func(r string) bool { return r == exposedName })
		default:
			return f.Doc, nil
		}
		if rules == nil {
			rules = []string{}
		}
		return SetMember(f.Doc, []string{keyPermissions, "deny"}, rules)
	})
}
