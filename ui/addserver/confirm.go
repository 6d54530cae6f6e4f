package addserver

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/registry"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// confirmModal shows the definition that will be written and
// where; enter writes it (and stores its secrets) in a Cmd, esc goes back.
type confirmModal struct {
	*deps
	back    tuikit.Modal
	name    string
	scope   model.Scope
	path    string
	cfg     model.ServerConfig
	secrets []registry.Secret
	plan    registry.Plan // for its bundle
	pending int
	err     string
}

func (c *confirmModal) TakesText() bool { return false }

func (c *confirmModal) Answers() any { return nil }

func (c *confirmModal) Help() []key.Binding {
	if c.pending != 0 {
		return nil
	}
	return []key.Binding{c.env.Keys.Install, c.env.Keys.Back}
}

func (c *confirmModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case installedMsg:
		if msg.id != c.pending {
			return c, nil
		}
		c.pending = 0
		if msg.err != nil {
			c.err = msg.err.Error()
			return c, nil
		}
		return nil, nil
	case tea.KeyMsg:
		switch {
		case c.pending != 0:
		case key.Matches(msg, c.env.Keys.Back):
			return c.back, nil
		case key.Matches(msg, c.env.Keys.Install):
			return c, c.install()
		}
	}
	return c, nil
}

// install writes the definition and its secrets, then reloads the
// configuration so that the engine sees both, in a Cmd.
func (c *confirmModal) install() tea.Cmd {
	c.pending, c.err = c.env.NextID(), ""
	id, reg, reload, ctx := c.pending, c.reg, c.reload, c.env.Ctx
	name, scope, cfg, secrets, bundle := c.name, c.scope, c.cfg, c.secrets, c.plan.Bundle
	return func() tea.Msg {
		path, err := reg.Install(ctx, scope, name, cfg, secrets, bundle)
		msg := installedMsg{id: id, name: name, path: path, scope: scope, err: err}
		if err == nil {
			_ = bundle.Close() // unpacked: its download is done with
			msg.reloadError = reload(ctx)
		}
		return msg
	}
}

func (c *confirmModal) View(width, _ int) string {
	st := c.env.St
	lines := []string{
		st.Heading.Render("Add " + textsafe.SanitizeLine(c.name) + "?"),
		tuikit.Wrap(fmt.Sprintf("%s server %s, written to the %s scope (%s):", c.cfg.EffectiveType(), textsafe.SanitizeLine(c.name), c.scope, textsafe.SanitizeLine(c.path)), max(width, 10)),
	}
	for _, l := range c.plan.InstallLines(c.cfg, c.secrets) {
		lines = append(lines, "  "+textsafe.SanitizeLine(l))
	}
	switch {
	case c.pending != 0:
		lines = append(lines, "", st.Muted.Render("writing…"))
	case c.err != "":
		lines = append(lines, "", st.Bad.Render(tuikit.Wrap("✗ "+textsafe.SanitizeLine(c.err), max(width-2, 10))))
	}
	return strings.Join(lines, "\n")
}
