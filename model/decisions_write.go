package model

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// SetEnabled records in local settings (disabledMcpServers) whether a server
// may run; name "all" applies to every server currently configured (enabling
// all also clears names of servers that no longer exist). An unknown name is
// ErrNotFound.
func SetEnabled(opts LoadOptions, name string, enabled bool) error {
	r, err := Load(opts)
	if err != nil {
		return err
	}
	var names []string
	if name == "all" {
		for _, s := range r.Servers {
			names = append(names, s.Name)
		}
	} else {
		s, ok := r.Server(name)
		if !ok {
			return fmt.Errorf("%w: no server named %s", ErrNotFound, name)
		}
		names = []string{s.Name}
	}
	return setEnabled(r.LocalSettings, r.ProjectRoot, names, enabled, name == "all")
}

// setEnabled records in the private state file of the project at root
// (disabledMcpServers) whether the servers names may run; enabling all
// clears the list, also of names of servers that no longer exist.
func setEnabled(file, root string, names []string, enabled, all bool) error {
	return editLocal(file, root, func(f *jsonFile) ([]byte, error) {
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
		if f.root.Get(keyDisabled) == nil && len(list) == 0 && orig == 0 {
			return f.doc, nil
		}
		return setMember(f.doc, []string{keyDisabled}, list)
	})
}

// SetApproval records the person's decision on a project server in local
// settings. Approving stores the hash and the definition approved (so a later
// change is detected and can be shown as a diff); a non-empty hash must match
// the current definition — the person approves what they were shown, not
// something that changed since (ErrInvalid). Name "all" decides every project
// server (hash ignored). Rejecting removes any recorded approval.
func SetApproval(opts LoadOptions, name string, approved bool, hash string) error {
	r, err := Load(opts)
	if err != nil {
		return err
	}
	var targets []Server
	if name == "all" {
		for _, s := range r.Servers {
			if s.Scope == ScopeProject {
				targets = append(targets, s)
			}
		}
		if len(targets) == 0 {
			return nil
		}
	} else {
		s, ok := r.Server(name)
		switch {
		case !ok:
			return fmt.Errorf("%w: no server named %s", ErrNotFound, name)
		case s.Scope != ScopeProject:
			return fmt.Errorf("%w: server %s comes from the %s scope and needs no approval", ErrInvalid, s.Name, s.Scope)
		case approved && hash != "" && hash != s.Hash:
			return fmt.Errorf("%w: the definition of server %s changed since it was shown; review it again", ErrInvalid, s.Name)
		}
		targets = []Server{s}
	}
	return setApproval(r.LocalSettings, r.ProjectRoot, targets, approved)
}

// setApproval records, in the private state file of the project at root,
// the person's decision on the project servers targets: approving stores
// each one's hash and definition as written (so a later change is
// detected and can be shown as a diff), rejecting removes any recorded
// approval.
func setApproval(file, root string, targets []Server, approved bool) error {
	return editLocal(file, root, func(f *jsonFile) ([]byte, error) {
		enabledList, err := stringList(f, keyEnabledMcpjson)
		if err != nil {
			return nil, err
		}
		disabledList, err := stringList(f, keyDisabledMcpjson)
		if err != nil {
			return nil, err
		}
		if n := f.root.Get(keyApproved); n != nil && n.Kind != '{' && n.Kind != 'z' {
			return nil, errFileUnusable("%s: %s is not an object", f.path, keyApproved)
		}
		doc := f.doc
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
				if doc, err = setMember(doc, []string{keyApproved, s.Name}, entry); err != nil {
					return nil, err
				}
			}
		}
		if doc, err = setMember(doc, []string{keyEnabledMcpjson}, enabledList); err != nil {
			return nil, err
		}
		return setMember(doc, []string{keyDisabledMcpjson}, disabledList)
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
		if doc, _, err = deleteMember(doc, []string{keyApproved, m}); err != nil {
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
	want := NormalizeName(name)
	for _, m := range n.Members {
		if NormalizeName(m.Key) == want {
			out = append(out, m.Key)
		}
	}
	return out
}

// stringList reads a top-level list of names, refusing a wrong type.
func stringList(f *jsonFile, key string) ([]string, error) {
	n := f.root.Get(key)
	if n == nil {
		return nil, nil
	}
	v, ferr := jsondoc.Decoder{Doc: f.doc}.Strs(n, key)
	if ferr != nil {
		p := f.problemAt("", ferr)
		return nil, errFileUnusable("%s", p.Error())
	}
	return v, nil
}

// editLocal edits the person's private state of a project (see
// privateStatePath), creating the projects directory (private to the person)
// when needed. A new file starts by naming the project it belongs to.
func editLocal(path, root string, edit func(f *jsonFile) ([]byte, error)) error {
	if path == "" {
		return fmt.Errorf("%w: no absolute user config directory is known, so mcpdeck has nowhere private to save this", ErrInvalid)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return fmt.Errorf("cannot create %s: %w", filepath.Dir(path), err)
	}
	return editFile(path, writeRules{newMode: newFileMode(ScopeLocal)}, func(f *jsonFile) ([]byte, error) {
		out, err := edit(f)
		if err != nil || f.root.Get(keyProject) != nil || bytes.Equal(out, f.doc) {
			return out, err
		}
		return setMember(out, []string{keyProject}, canonicalDir(root))
	})
}
