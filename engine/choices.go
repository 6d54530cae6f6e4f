package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/config"
)

// ErrChangedSinceShown refuses an approval whose definition is no longer
// the one the person saw.
var ErrChangedSinceShown = errors.New("its definition changed since it was shown to you; look at it again before approving")

// names expands "all" or checks that one name exists.
func (c *configParts) names(name string, pick func(*entry) bool) (out []string, err error) {
	e := c.e
	e.locked(func() {
		switch {
		case e.closed:
			err = ErrClosed
		case name != "all" && e.byName[name] == nil:
			err = unknownServer(name)
		case name != "all":
			out = []string{name}
		default:
			for _, en := range e.order {
				if pick == nil || pick(en) {
					out = append(out, en.srv.Name)
				}
			}
		}
	})
	return out, err
}

// isExtraLocked reports whether name is a server no file defines: one
// the program injected or an editor's.
func (c *configParts) isExtraLocked(name string) bool {
	if res := c.e.res; res != nil {
		if _, ok := res.Server(name); ok {
			return false
		}
	}
	for _, x := range slices.Concat(c.e.opts.Extra, c.ides) {
		if x.Name == name {
			return true
		}
	}
	return false
}

// setEnabled persists enable/disable (in memory for injected servers) and
// reloads.
func (c *configParts) setEnabled(ctx context.Context, name string, on bool) error {
	e := c.e
	list, err := c.names(name, func(en *entry) bool { return en.srv.Enabled != on })
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range list {
		extra := false
		e.locked(func() {
			if extra = c.isExtraLocked(n); extra {
				c.overEn[n] = on
			}
		})
		if !extra {
			if err := config.SetEnabled(e.opts.Load, n, on); err != nil {
				errs = append(errs, fmt.Errorf("server %s: %w", n, err))
			}
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// setApproval records the person's decision for project servers, tied to
// each server's current config hash.
func (c *configParts) setApproval(ctx context.Context, name string, ok bool) error {
	e := c.e
	awaiting := func(en *entry) bool {
		s := en.srv.Approval.Status
		return s == model.ApprovalPending || s == model.ApprovalChanged
	}
	list, err := c.names(name, awaiting)
	if err != nil {
		return err
	}
	var errs []error
	for _, n := range list {
		var srv model.Server
		e.locked(func() { srv = e.byName[n].srv })
		if srv.Approval.Status == model.ApprovalNotNeeded {
			errs = append(errs, fmt.Errorf("server %s is not a project server: nothing to approve", n))
			continue
		}
		if err := config.SetApproval(e.opts.Load, n, ok, srv.Hash); err != nil {
			errs = append(errs, fmt.Errorf("server %s: %w", n, err))
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// approveShown approves exactly the definitions the person was shown (see
// Engine.ApproveShown).
func (c *configParts) approveShown(ctx context.Context, shown map[string]string) error {
	e := c.e
	var errs []error
	for _, n := range slices.Sorted(maps.Keys(shown)) {
		var hash string
		found := false
		e.locked(func() {
			if en := e.byName[n]; en != nil {
				hash, found = en.srv.Hash, true
			}
		})
		switch {
		case !found:
			errs = append(errs, unknownServer(n))
		case hash != shown[n]:
			errs = append(errs, fmt.Errorf("server %s: %w", n, ErrChangedSinceShown))
		default:
			if err := config.SetApproval(e.opts.Load, n, true, shown[n]); err != nil {
				errs = append(errs, fmt.Errorf("server %s: %w", n, err))
			}
		}
	}
	if err := e.Reload(ctx); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// setToolDenied adds or removes the permission deny rule for one tool (see
// Engine.SetToolDenied).
func (c *configParts) setToolDenied(ctx context.Context, server, tool string, deny bool) error {
	e := c.e
	known := false
	e.locked(func() { _, known = e.byName[server] })
	if !known {
		return unknownServer(server)
	}
	if err := config.SetToolDenied(e.opts.Load, model.ToolName(server, tool), deny); err != nil {
		return fmt.Errorf("server %s, tool %s: %w", server, tool, err)
	}
	return e.Reload(ctx)
}

// setSampling saves the person's standing decision on name's sampling
// requests and reloads, so the server's snapshot shows it.
func (c *configParts) setSampling(ctx context.Context, name string, d model.SamplingDecision) error {
	e := c.e
	extra := false
	e.locked(func() {
		if extra = c.isExtraLocked(name); extra {
			c.overSampling[name] = d
		}
	})
	if !extra {
		if err := config.SetSamplingDecision(e.opts.Load, name, d); err != nil {
			return err
		}
	}
	return e.Reload(ctx)
}
