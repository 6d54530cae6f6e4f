package private

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

// RecordEnabled records in the private state file of the project at root
// (disabledMcpServers) whether the servers names may run; enabling all
// clears the list, also of names of servers that no longer exist.
func RecordEnabled(file, root string, names []string, enabled, all bool) error {
	return EditState(file, root, func(f *jsonfile.File) ([]byte, error) {
		list, err := stringList(f, keyDisabled)
		if err != nil {
			return nil, err
		}
		orig := len(list)
		switch {
		case enabled && all:
			list = []string{}
		default:
			for _, n := range names {
				if enabled {
					list = withoutName(list, n)
				} else {
					list = withName(list, n)
				}
			}
		}
		if f.Root.Get(keyDisabled) == nil && len(list) == 0 && orig == 0 {
			return f.Doc, nil
		}
		return jsonfile.SetMember(f.Doc, []string{keyDisabled}, list)
	})
}

// RecordApproval records, in the private state file of the project at root,
// the person's decision on the project servers targets: approving stores
// each one's hash and definition as written (so a later change is
// detected and can be shown as a diff), rejecting removes any recorded
// approval.
func RecordApproval(file, root string, targets []model.Server, approved bool) error {
	return EditState(file, root, func(f *jsonfile.File) ([]byte, error) {
		enabledList, err := stringList(f, keyEnabledMcpjson)
		if err != nil {
			return nil, err
		}
		disabledList, err := stringList(f, keyDisabledMcpjson)
		if err != nil {
			return nil, err
		}
		if n := f.Root.Get(keyApproved); n != nil && n.Kind != '{' && n.Kind != 'z' {
			return nil, jsonfile.Unusable("%s: %s is not an object", f.Path, keyApproved)
		}
		doc := f.Doc
		for _, s := range targets {
			if approved {
				enabledList, disabledList = withName(enabledList, s.Name), withoutName(disabledList, s.Name)
			} else {
				enabledList, disabledList = withoutName(enabledList, s.Name), withName(disabledList, s.Name)
			}
			if doc, err = dropApproved(doc, s.Name); err != nil {
				return nil, err
			}
			if approved {
				entry := approvedEntry{Hash: s.Hash, Config: s.Raw}
				if doc, err = jsonfile.SetMember(doc, []string{keyApproved, s.Name}, entry); err != nil {
					return nil, err
				}
			}
		}
		if doc, err = jsonfile.SetMember(doc, []string{keyEnabledMcpjson}, enabledList); err != nil {
			return nil, err
		}
		return jsonfile.SetMember(doc, []string{keyDisabledMcpjson}, disabledList)
	})
}

// dropApproved removes every approvedMcpjsonServers entry whose name
// normalizes like name (the person may have spelled it differently).
func dropApproved(doc []byte, name string) ([]byte, error) {
	root, err := jsondoc.Parse(doc)
	if err != nil {
		return nil, err
	}
	for _, m := range membersNamed(root.Get(keyApproved), name) {
		if doc, _, err = jsonfile.DeleteMember(doc, []string{keyApproved, m}); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// membersNamed returns the keys of an object n that normalize like name.
func membersNamed(n *jsondoc.Node, name string) []string {
	if n == nil || n.Kind != '{' {
		return nil
	}
	var out []string
	want := model.NormalizeName(name)
	for _, m := range n.Members {
		if model.NormalizeName(m.Key) == want {
			out = append(out, m.Key)
		}
	}
	return out
}

// stringList reads a top-level list of names, refusing a wrong type.
func stringList(f *jsonfile.File, key string) ([]string, error) {
	n := f.Root.Get(key)
	if n == nil {
		return nil, nil
	}
	v, ferr := jsondoc.Decoder{Doc: f.Doc}.Strs(n, key)
	if ferr != nil {
		p := f.ProblemAt("", ferr)
		return nil, jsonfile.Unusable("%s", p.Error())
	}
	return v, nil
}

// EditState edits the person's private state of a project (see
// StatePath), creating the projects directory (private to the person)
// when needed. A new file starts by naming the project it belongs to. A
// file that cannot be read is refused with what the person needs first:
// that nothing can be saved until it is fixed, then where and why.
func EditState(path, root string, edit func(f *jsonfile.File) ([]byte, error)) error {
	if path == "" {
		return fmt.Errorf("%w: no absolute user config directory is known, so mcpdeck has nowhere private to save this", model.ErrInvalid)
	}
	if _, p := jsonfile.Read(path); p != nil {
		return jsonfile.Unusable("your settings for this project cannot be saved until its file is fixed: %s", p.Error())
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	return jsonfile.Edit(path, jsonfile.WriteRules{NewMode: jsonfile.NewFileMode(model.ScopeLocal), Backup: true}, func(f *jsonfile.File) ([]byte, error) {
		out, err := edit(f)
		if err != nil || f.Root.Get(keyProject) != nil || bytes.Equal(out, f.Doc) {
			return out, err
		}
		return jsonfile.SetMember(out, []string{keyProject}, canonicalDir(root))
	})
}

// RecordToolDenied adds (deny true) or removes the permissions.deny rule
// exposedName in the private state file of the project at root.
func RecordToolDenied(file, root, exposedName string, deny bool) error {
	return EditState(file, root, func(f *jsonfile.File) ([]byte, error) {
		p, probs := policy.ReadPermissions(f, nil)
		if len(probs) > 0 {
			return nil, fmt.Errorf("%w: %s", model.ErrInvalid, probs[0].Error())
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
		return jsonfile.SetMember(f.Doc, []string{policy.PermissionsKey, "deny"}, rules)
	})
}

// ResetProjectChoices forgets, in the private state file of the project
// at root, every decision on its project servers: approvals (with their
// hashes), rejections and enableAllProjectMcpServers. Each project server
// asks again, as new. It reports whether there was anything to forget.
func ResetProjectChoices(file, root string) (bool, error) {
	if _, err := os.Stat(file); errors.Is(err, os.ErrNotExist) {
		return false, nil // no decision was ever written
	}
	forgot := false
	err := EditState(file, root, func(f *jsonfile.File) ([]byte, error) {
		doc := f.Doc
		for _, k := range []string{keyEnabledMcpjson, keyDisabledMcpjson, keyEnableAll, keyApproved} {
			var found bool
			var err error
			if doc, found, err = jsonfile.DeleteMember(doc, []string{k}); err != nil {
				return nil, err
			}
			forgot = forgot || found
		}
		return doc, nil
	})
	return forgot, err
}
