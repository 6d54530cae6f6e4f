// Package addserver is + in the server list: a search of the MCP
// Registry, what installing the server found means (its plan), a form for
// what it asks, the definition to confirm, and the install; and the same
// form for the CLI's mcp add --registry (InstallForm).
package addserver

import (
	"context"
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	"github.com/charmbracelet/bubbles/textinput"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/registry"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Registry is what + in the server list needs: the MCP Registry, and a
// place to install a server with its secrets. ui/cli provides it (the
// registry client, the config files, mcpdeck's secret store); without one
// + says it is not available.
type Registry interface {
	Search(ctx context.Context, query string) ([]registry.Entry, error)
	// Pinned fetches a server.json at its version (registry.Client.Pinned).
	Pinned(ctx context.Context, name, version string) (registry.Entry, error)
	// Target is the file a scope's servers are written to.
	Target(scope model.Scope) (string, error)
	// Fetch downloads and checks the MCP bundle a plan runs
	// (registry.Bundles.Fetch): the plan comes back with the bundle and
	// the settings it asks for. The download stays until the bundle is
	// closed, or the program ends.
	Fetch(ctx context.Context, plan registry.Plan) (registry.Plan, error)
	// Install writes the definition and stores its secrets, after
	// unpacking bundle when there is one (registry.InstallBundle).
	Install(ctx context.Context, scope model.Scope, name string, cfg model.ServerConfig, secrets []registry.Secret, bundle *registry.Bundle) (string, error)
}

// Messages of the registry modals, each carrying the id of the request
// it answers so that a late answer to an abandoned one is dropped. Every
// open modal is given a search's, a preparation's and an install's
// answer; the root words an install's on its status line.
type (
	foundMsg struct {
		id      int
		entries []registry.Entry
		err     error
	}
	preparedMsg struct {
		id      int
		entry   registry.Entry
		targets map[model.Scope]string
		err     error
	}
	fetchedMsg struct {
		id   int
		plan registry.Plan
		err  error
	}
	installedMsg struct {
		id          int
		name, path  string
		scope       model.Scope
		err         error
		reloadError error
	}
)

func (foundMsg) Broadcast()     {}
func (preparedMsg) Broadcast()  {}
func (installedMsg) Broadcast() {}

// deps is what the registry modals need besides their Env: the registry,
// and the reload that makes the engine see an installed server.
type deps struct {
	env    *tuikit.Env
	reg    Registry
	reload func(ctx context.Context) error
}

// searchModal is + in the server list: a query, the registry's
// answers under it; enter on one fetches its server.json and shows what
// installing it means (planModal).
type searchModal struct {
	*deps
	input   textinput.Model
	results []registry.Entry
	cursor  int
	inList  bool // keys move through the results, not the query
	wait    waiting
	err     string
}

// Open is + : the search of reg; reload makes the engine see a server
// once it is installed.
func Open(e *tuikit.Env, reg Registry, reload func(ctx context.Context) error) (tuikit.Modal, tea.Cmd) {
	ti := tuikit.NewTextInput()
	ti.Prompt = "search: "
	ti.Placeholder = "a name or a word of its description (enter with nothing lists all)"
	r := &searchModal{deps: &deps{env: e, reg: reg, reload: reload}, input: ti}
	return r, r.input.Focus()
}

// TakesText: the query is typed, the results are not.
func (r *searchModal) TakesText() bool { return !r.inList }

func (r *searchModal) Answers() any { return nil }

func (r *searchModal) Help() []key.Binding {
	k := r.env.Keys
	if r.inList {
		return []key.Binding{k.Up, k.Down, k.Open, k.SwitchFocus, k.Back}
	}
	return []key.Binding{k.Search, k.SwitchFocus, k.Cancel}
}

func (r *searchModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case foundMsg:
		if r.wait.answeredBy(msg.id) {
			r.wait.stop()
			r.results, r.cursor, r.err = msg.entries, 0, errText(msg.err)
			r.inList = len(r.results) > 0
		}
		return r, nil
	case preparedMsg:
		if !r.wait.answeredBy(msg.id) {
			return r, nil
		}
		r.wait.stop()
		if msg.err != nil {
			r.err = errText(msg.err)
			return r, nil
		}
		return newPlanModal(r.deps, r, msg.entry, msg.targets), nil
	case spinner.TickMsg:
		return r, r.wait.tick(msg)
	case tea.KeyMsg:
		return r.onKey(msg)
	}
	var cmd tea.Cmd
	r.input, cmd = r.input.Update(msg)
	return r, cmd
}

func (r *searchModal) onKey(km tea.KeyMsg) (tuikit.Modal, tea.Cmd) {
	k := r.env.Keys
	switch {
	case key.Matches(km, k.Back):
		if r.inList {
			r.inList = false
			return r, r.input.Focus()
		}
		return nil, nil
	case key.Matches(km, k.SwitchFocus) || (!r.inList && key.Matches(km, k.FilterDown)):
		r.inList = !r.inList && len(r.results) > 0
		if !r.inList {
			return r, r.input.Focus()
		}
		r.input.Blur()
		return r, nil
	case !r.inList && key.Matches(km, k.Search):
		return r.search()
	case key.Matches(km, k.Open):
		return r.prepare(r.results[r.cursor])
	case r.inList:
		if delta, ok := k.ScrollBy(km, 5); ok {
			r.cursor = max(0, min(r.cursor+delta, len(r.results)-1))
		}
		return r, nil
	}
	var cmd tea.Cmd
	r.input, cmd = r.input.Update(km)
	return r, cmd
}

// search asks the registry in a Cmd.
func (r *searchModal) search() (tuikit.Modal, tea.Cmd) {
	q := strings.TrimSpace(r.input.Value())
	id, reg, ctx := r.env.NextID(), r.reg, r.env.Ctx
	r.err = ""
	return r, tea.Batch(r.wait.start(id, "searching the MCP Registry…"), func() tea.Msg {
		entries, err := reg.Search(ctx, q)
		return foundMsg{id: id, entries: entries, err: err}
	})
}

// prepare fetches the chosen server's server.json at its version and the
// files it could be written to, in a Cmd.
func (r *searchModal) prepare(e registry.Entry) (tuikit.Modal, tea.Cmd) {
	id, reg, ctx := r.env.NextID(), r.reg, r.env.Ctx
	r.err = ""
	return r, tea.Batch(r.wait.start(id, "fetching "+e.Name+"…"), func() tea.Msg {
		pinned, err := reg.Pinned(ctx, e.Name, e.Version)
		if err != nil {
			return preparedMsg{id: id, err: err}
		}
		targets := map[model.Scope]string{}
		for _, s := range []model.Scope{model.ScopeUser, model.ScopeLocal} {
			if targets[s], err = reg.Target(s); err != nil {
				return preparedMsg{id: id, err: err}
			}
		}
		return preparedMsg{id: id, entry: pinned, targets: targets}
	})
}

func (r *searchModal) View(width, height int) string {
	st := r.env.St
	r.input.Width = max(width-len(r.input.Prompt)-2, 10)
	lines := []string{st.Heading.Render("Add a server from the MCP Registry"), r.input.View()}
	switch {
	case r.wait.busy():
		lines = append(lines, r.wait.view(st))
	case r.err != "":
		lines = append(lines, errLines(st, r.err, width)...)
	case r.results != nil && len(r.results) == 0:
		lines = append(lines, st.Muted.Render("no servers found"))
	default:
		lines = append(lines, "")
	}
	per := max((height-len(lines))/2, 1)
	start := max(0, min(r.cursor-per+1, len(r.results)-per))
	for i := start; i < min(start+per, len(r.results)); i++ {
		e := r.results[i]
		label := textsafe.SanitizeLine(fmt.Sprintf("%s  %s  [%s]", e.Name, e.Version, strings.Join(e.Kinds(), ", ")))
		if i == r.cursor && r.inList {
			lines = append(lines, "› "+st.Selected.Render(label))
		} else {
			lines = append(lines, "  "+label)
		}
		lines = append(lines, "    "+st.Muted.Render(ansi.Truncate(textsafe.SanitizeLine(tuikit.FirstLine(describe(e))), max(width-4, 10), "…")))
	}
	return strings.Join(lines, "\n")
}

// describe is an entry's title and description.
func describe(e registry.Entry) string {
	if e.Title != "" {
		return e.Title + " — " + e.Description
	}
	return e.Description
}

// errLines is a failure in full, wrapped to width: its end (the URL that
// failed, what to set) is what the person needs.
func errLines(st *styles.Styles, err string, width int) []string {
	return strings.Split(st.Bad.Render(tuikit.Wrap("✗ "+textsafe.SanitizeLine(err), max(width-2, 10))), "\n")
}

// errText is err's sentence, "" for none.
func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// Report is the status line once an install finished: where the server
// went, or why it did not.
func (msg installedMsg) Report() (string, bool) {
	switch {
	case msg.err != nil:
		return "add " + msg.name + ": " + msg.err.Error(), true
	case msg.reloadError != nil:
		return fmt.Sprintf("added %s to the %s scope (%s); reloading: %v", msg.name, msg.scope, msg.path, msg.reloadError), true
	}
	return fmt.Sprintf("added %s to the %s scope (%s)", msg.name, msg.scope, msg.path), false
}
