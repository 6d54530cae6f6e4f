package private

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/policy"
)

// LocalMigration is what MigrateLocal moves from the project's untrusted
// .mcpdeck/settings.local.json into the person's private state. Everything
// in it takes effect without a prompt once moved, so a UI shows all of it
// before the person agrees.
type LocalMigration struct {
	From    string                        `json:"from"` // the untrusted file
	To      string                        `json:"to"`   // the private state file
	Hash    string                        `json:"hash"` // sha256 of From's bytes, as shown
	Servers map[string]model.ServerConfig `json:"servers,omitempty"`
	// Approved names the project servers it approves by hash.
	Approved        []string           `json:"approved,omitempty"`
	EnabledMcpjson  []string           `json:"enabledMcpjsonServers,omitempty"`
	DisabledMcpjson []string           `json:"disabledMcpjsonServers,omitempty"`
	EnableAll       bool               `json:"enableAllProjectMcpServers,omitempty"`
	Disabled        []string           `json:"disabledMcpServers,omitempty"`
	Permissions     policy.Permissions `json:"permissions"`
	// Skipped lists servers and approvals already in the private state: the
	// private one is kept. Filled by MigrateLocal.
	Skipped []string `json:"skipped,omitempty"`
	// Problems are fields of the wrong type; they are not moved.
	Problems []model.Problem `json:"problems,omitempty"`
}

// ServerNames returns the names of Servers, sorted.
func (m LocalMigration) ServerNames() []string {
	names := make([]string, 0, len(m.Servers))
	for n := range m.Servers {
		names = append(names, n)
	}
	sort.Strings(names)
	return names
}

// ReadMigration reads the untrusted file for a migration into the private
// state file local.
func ReadMigration(untrusted, local string) (LocalMigration, *jsonfile.File, error) {
	m := LocalMigration{From: untrusted, To: local}
	doc, ok := readRegular(untrusted)
	if !ok {
		return m, nil, fmt.Errorf("%w: there is no %s to migrate", model.ErrNotFound, untrusted)
	}
	m.Hash = contentHash(doc)
	f, p := jsonfile.Parse(untrusted, doc)
	if p != nil {
		return m, nil, jsonfile.Unusable("%s", p.Error())
	}
	st, probs := ReadDecisions(f)
	m.Problems = probs
	m.EnabledMcpjson, m.DisabledMcpjson, m.Disabled = st.enabledMcpjson, st.disabledMcpjson, st.disabled
	m.EnableAll, m.Permissions = st.enableAll, st.permissions
	m.Approved = f.Root.Get(keyApproved).Keys()
	defs, sp := jsonfile.ServersIn(f, model.ScopeLocal, untrusted)
	m.Problems = append(m.Problems, sp...)
	if len(defs) > 0 {
		m.Servers = map[string]model.ServerConfig{}
	}
	for _, d := range defs {
		m.Servers[d.Name] = d.Raw
	}
	return m, f, nil
}

// Migrate moves the untrusted file into the private state file local
// of the project at root, if its content still hashes to hash.
func Migrate(untrusted, local, root, hash string) (LocalMigration, error) {
	m, src, err := ReadMigration(untrusted, local)
	if err != nil {
		return m, err
	}
	if m.Hash != hash {
		return m, fmt.Errorf("%w: %s changed since it was shown; run the migration again to review it", model.ErrInvalid, m.From)
	}
	err = EditState(local, root, func(f *jsonfile.File) ([]byte, error) {
		var skipped []string
		doc, err := copyMembers(f, src, jsonfile.ServersKey, f.Doc, &skipped)
		if err != nil {
			return nil, err
		}
		if doc, err = copyMembers(f, src, keyApproved, doc, &skipped); err != nil {
			return nil, err
		}
		m.Skipped = skipped
		return mergeDecisions(f, doc, m)
	})
	if err != nil {
		return m, err
	}
	if err := os.Remove(m.From); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return m, fmt.Errorf("moved %s into %s but could not delete it: %w", m.From, m.To, err)
	}
	_ = os.Remove(filepath.Dir(m.From)) // only succeeds when empty
	return m, nil
}

// copyMembers copies each member of src's object key into doc, byte for
// byte, unless dst already has a member of that name (recorded in skipped).
func copyMembers(dst, src *jsonfile.File, key string, doc []byte, skipped *[]string) ([]byte, error) {
	from := src.Root.Get(key)
	if from == nil || from.Kind != '{' {
		return doc, nil
	}
	if to := dst.Root.Get(key); to != nil && to.Kind != '{' && to.Kind != 'z' {
		return nil, jsonfile.Unusable("%s: %s is not an object", dst.Path, key)
	}
	var err error
	for _, mem := range from.Members {
		if len(membersNamed(dst.Root.Get(key), mem.Key)) > 0 {
			*skipped = append(*skipped, key+"."+mem.Key)
			continue
		}
		raw := json.RawMessage(src.Doc[mem.Val.Start:mem.Val.End])
		if doc, err = jsonfile.SetMember(doc, []string{key, mem.Key}, raw); err != nil {
			return nil, err
		}
	}
	return doc, nil
}

// mergeDecisions adds m's lists, enable-all and permission rules to those
// already in the private state f (whose current bytes are doc).
func mergeDecisions(f *jsonfile.File, doc []byte, m LocalMigration) ([]byte, error) {
	lists := []struct {
		key   string
		names []string
	}{{keyEnabledMcpjson, m.EnabledMcpjson}, {keyDisabledMcpjson, m.DisabledMcpjson}, {keyDisabled, m.Disabled}}
	for _, li := range lists {
		if len(li.names) == 0 {
			continue
		}
		cur, err := stringList(f, li.key)
		if err != nil {
			return nil, err
		}
		for _, n := range li.names {
			cur = withName(cur, n)
		}
		if doc, err = jsonfile.SetMember(doc, []string{li.key}, cur); err != nil {
			return nil, err
		}
	}
	var err error
	if m.EnableAll {
		if doc, err = jsonfile.SetMember(doc, []string{keyEnableAll}, true); err != nil {
			return nil, err
		}
	}
	if len(m.Permissions.Allow)+len(m.Permissions.Deny) == 0 {
		return doc, nil
	}
	cur, probs := policy.ReadPermissions(f, nil)
	if len(probs) > 0 {
		return nil, jsonfile.Unusable("%s", probs[0].Error())
	}
	for _, r := range m.Permissions.Allow {
		cur.Allow = withRule(cur.Allow, r)
	}
	for _, r := range m.Permissions.Deny {
		cur.Deny = withRule(cur.Deny, r)
	}
	if doc, err = jsonfile.SetMember(doc, []string{policy.PermissionsKey, "allow"}, nonNil(cur.Allow)); err != nil {
		return nil, err
	}
	return jsonfile.SetMember(doc, []string{policy.PermissionsKey, "deny"}, nonNil(cur.Deny))
}

// withRule appends rule unless list already holds it exactly.
func withRule(list []string, rule string) []string {
	for _, r := range list {
		if r == rule {
			return list
		}
	}
	return append(list, rule)
}

func nonNil(s []string) []string {
	if s == nil {
		return []string{}
	}
	return s
}
