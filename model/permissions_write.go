package model

import (
	"fmt"
	"slices"
)

// SetToolDenied adds (deny true) or removes a permissions.deny rule for one
// tool, by its exposed name (mcp__server__tool), in the project's private
// state. Removing takes out only that exact rule; a broader rule
// (mcp__server__*) elsewhere still applies.
func SetToolDenied(opts LoadOptions, exposedName string, deny bool) error {
	if exposedName == "" {
		return fmt.Errorf("%w: no tool name", ErrInvalid)
	}
	r, err := Load(opts)
	if err != nil {
		return err
	}
	return setToolDenied(r.LocalSettings, r.ProjectRoot, exposedName, deny)
}

// setToolDenied adds (deny true) or removes the permissions.deny rule
// exposedName in the private state file of the project at root.
func setToolDenied(file, root, exposedName string, deny bool) error {
	return editLocal(file, root, func(f *jsonFile) ([]byte, error) {
		p, probs := readPermissions(f, nil)
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
			return f.doc, nil
		}
		if rules == nil {
			rules = []string{}
		}
		return setMember(f.doc, []string{keyPermissions, "deny"}, rules)
	})
}
