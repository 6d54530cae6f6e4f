package config

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/internal/jsonfile"
	"github.com/mcpdeck/mcpdeck/model/private"
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
			return fmt.Errorf("%w: no server named %s", model.ErrNotFound, name)
		}
		names = []string{s.Name}
	}
	return private.RecordEnabled(r.LocalSettings, r.ProjectRoot, names, enabled, name == "all")
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
	var targets []model.Server
	if name == "all" {
		for _, s := range r.Servers {
			if s.Scope == model.ScopeProject {
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
			return fmt.Errorf("%w: no server named %s", model.ErrNotFound, name)
		case s.Scope != model.ScopeProject:
			return fmt.Errorf("%w: server %s comes from the %s scope and needs no approval", model.ErrInvalid, s.Name, s.Scope)
		case approved && hash != "" && hash != s.Hash:
			return fmt.Errorf("%w: the definition of server %s changed since it was shown; review it again", model.ErrInvalid, s.Name)
		}
		targets = []model.Server{s}
	}
	return private.RecordApproval(r.LocalSettings, r.ProjectRoot, targets, approved)
}

// ResetProjectChoices forgets the person's approvals and rejections of the
// project's .mcp.json servers (Claude Code's `mcp reset-project-choices`):
// each asks again at the next start. It reports whether there were any.
func ResetProjectChoices(opts LoadOptions) (bool, error) {
	r, err := Load(opts)
	if err != nil {
		return false, err
	}
	if r.LocalSettings == "" {
		return false, nil
	}
	return private.ResetProjectChoices(r.LocalSettings, r.ProjectRoot)
}

// ReadUntrustedLocal reads the project's .mcpdeck/settings.local.json for
// MigrateLocal to show; ErrNotFound when there is none, ErrFileUnusable when
// it is not a JSON object.
func ReadUntrustedLocal(opts LoadOptions) (private.LocalMigration, error) {
	if err := opts.check(); err != nil {
		return private.LocalMigration{}, err
	}
	l := discover(opts)
	m, _, err := private.ReadMigration(l.untrusted, l.local)
	return m, err
}

// MigrateLocal moves the project's .mcpdeck/settings.local.json into the
// person's private state and deletes it (and .mcpdeck when that leaves it
// empty). hash must be the Hash the person was shown (ReadUntrustedLocal):
// if the file changed since, nothing moves (ErrInvalid). Servers and
// approvals are copied as written unless the private state already has one
// of that name (Skipped); lists and permission rules are merged. Only a
// person's explicit command may call this: it turns content from the
// working tree into trusted state.
func MigrateLocal(opts LoadOptions, hash string) (private.LocalMigration, error) {
	if err := opts.check(); err != nil {
		return private.LocalMigration{}, err
	}
	l := discover(opts)
	return private.Migrate(l.untrusted, l.local, l.root, hash)
}

// SetToolDenied adds (deny true) or removes a permissions.deny rule for one
// tool, by its exposed name (mcp__server__tool), in the project's private
// state. Removing takes out only that exact rule; a broader rule
// (mcp__server__*) elsewhere still applies.
func SetToolDenied(opts LoadOptions, exposedName string, deny bool) error {
	if exposedName == "" {
		return fmt.Errorf("%w: no tool name", model.ErrInvalid)
	}
	r, err := Load(opts)
	if err != nil {
		return err
	}
	return private.RecordToolDenied(r.LocalSettings, r.ProjectRoot, exposedName, deny)
}

// SetSamplingDecision records in the project's private state whether server
// name's sampling requests are always answered or never; SamplingAsk forgets
// the decision. An unknown name is ErrNotFound.
func SetSamplingDecision(opts LoadOptions, name string, d model.SamplingDecision) error {
	switch d {
	case model.SamplingAsk, model.SamplingAlways, model.SamplingNever:
	default:
		return fmt.Errorf("%w: sampling decision %q", model.ErrInvalid, d)
	}
	r, err := Load(opts)
	if err != nil {
		return err
	}
	s, ok := r.Server(name)
	if !ok {
		return fmt.Errorf("%w: no server named %s", model.ErrNotFound, name)
	}
	return private.RecordSampling(r.LocalSettings, r.ProjectRoot, s.Name, d)
}

// FindUntrusted is Resolved.Untrusted without loading every scope: the
// project's .mcpdeck/settings.local.json, or nil when there is none.
func FindUntrusted(opts LoadOptions) (*private.UntrustedLocal, error) {
	if err := opts.check(); err != nil {
		return nil, err
	}
	l := discover(opts)
	var state *jsonfile.File
	if l.local != "" {
		state, _ = jsonfile.Read(l.local)
	}
	return private.Untrusted(l.untrusted, state), nil
}

// MarkUntrustedTold records in the private state that the person was told
// about u, so the notice is not repeated until the file's content changes.
func MarkUntrustedTold(opts LoadOptions, u private.UntrustedLocal) error {
	if err := opts.check(); err != nil {
		return err
	}
	l := discover(opts)
	if u.Path != l.untrusted {
		return fmt.Errorf("%w: %s is not this project's %s/%s", model.ErrInvalid, u.Path, private.UntrustedLocalDir, private.UntrustedLocalFile)
	}
	return private.RecordUntrustedTold(l.local, l.root, u)
}
