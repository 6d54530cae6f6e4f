package addserver

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/form"
	"github.com/mcpdeck/mcpdeck/ui/registry"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// maxShownDescription caps a server.json's description on screen: it comes
// from the registry and may be huge.
const maxShownDescription = 600

// planModal shows what installing one registry server means: what
// it runs or reaches, what it asks for, which file it goes to. enter fills
// in its fields (a form), s switches between the user and the local scope,
// esc goes back to the search.
type planModal struct {
	*deps
	back    tuikit.Modal
	entry   registry.Entry
	plan    registry.Plan
	planErr string
	targets map[model.Scope]string
	scope   model.Scope
	wait    waiting // the bundle's download
}

func newPlanModal(d *deps, back tuikit.Modal, entry registry.Entry, targets map[model.Scope]string) *planModal {
	p, err := registry.NewPlan(entry, "")
	return &planModal{deps: d, back: back, entry: entry, plan: p, planErr: errText(err), targets: targets, scope: model.ScopeUser}
}

func (p *planModal) TakesText() bool { return false }

func (p *planModal) Answers() any { return nil }

func (p *planModal) Help() []key.Binding {
	k := p.env.Keys
	if p.planErr != "" || p.wait.busy() {
		return []key.Binding{k.Back}
	}
	return []key.Binding{k.Install, k.SwitchScope, k.Back}
}

func (p *planModal) Update(msg tea.Msg) (tuikit.Modal, tea.Cmd) {
	switch msg := msg.(type) {
	case fetchedMsg:
		return p.fetched(msg)
	case spinner.TickMsg:
		return p, p.wait.tick(msg)
	}
	km, ok := msg.(tea.KeyMsg)
	k := p.env.Keys
	switch {
	case !ok:
		return p, nil
	case key.Matches(km, k.Back):
		return p.back, closeBundle(p.plan.Bundle)
	case p.planErr != "" || p.wait.busy():
		return p, nil
	case key.Matches(km, k.SwitchScope):
		p.scope = map[model.Scope]model.Scope{model.ScopeUser: model.ScopeLocal, model.ScopeLocal: model.ScopeUser}[p.scope]
		return p, nil
	case key.Matches(km, k.Install) && p.plan.NeedsBundle():
		return p.fetch()
	case key.Matches(km, k.Install):
		return p.openForm()
	}
	return p, nil
}

// fetch downloads and checks the plan's bundle in a Cmd: its settings are
// known only from its manifest.
func (p *planModal) fetch() (tuikit.Modal, tea.Cmd) {
	id, reg, ctx, plan := p.env.NextID(), p.reg, p.env.Ctx, p.plan
	return p, tea.Batch(p.wait.start(id, "downloading and checking the bundle…"), func() tea.Msg {
		got, err := reg.Fetch(ctx, plan)
		return fetchedMsg{id: id, plan: got, err: err}
	})
}

// fetched takes the bundle's download: on to the form asking for its
// settings, or the reason it cannot be installed. A download nobody waits
// for any more is removed.
func (p *planModal) fetched(msg fetchedMsg) (tuikit.Modal, tea.Cmd) {
	if !p.wait.answeredBy(msg.id) {
		return p, closeBundle(msg.plan.Bundle)
	}
	p.wait.stop()
	if msg.err != nil {
		p.planErr = msg.err.Error()
		return p, nil
	}
	p.plan = msg.plan
	return p.openForm()
}

// closeBundle removes a bundle's download in a Cmd (nil for none).
func closeBundle(bd *registry.Bundle) tea.Cmd {
	if bd == nil {
		return nil
	}
	return func() tea.Msg {
		_ = bd.Close()
		return nil
	}
}

func (p *planModal) View(width, _ int) string {
	st := p.env.St
	e := p.entry
	lines := []string{st.Heading.Render(textsafe.SanitizeLine(e.Name + " " + e.Version))}
	desc := describe(e)
	if r := []rune(desc); len(r) > maxShownDescription {
		desc = string(r[:maxShownDescription]) + "…"
	}
	lines = append(lines, tuikit.Wrap(tuikit.Clean(desc), max(width, 10)), "")
	if p.planErr != "" {
		return strings.Join(append(lines, errLines(st, p.planErr, width)...), "\n")
	}
	asks := "nothing"
	if p.plan.NeedsBundle() {
		asks = "what its manifest says, read once the bundle is downloaded (enter)"
	}
	if len(p.plan.Fields) > 0 {
		var parts []string
		for _, f := range p.plan.Fields {
			parts = append(parts, f.Label()+fieldNotes(f))
		}
		asks = strings.Join(parts, ", ")
	}
	for _, kv := range [][2]string{
		{"Runs", p.plan.Runs()},
		{"Asks for", asks},
		{"Saves to", fmt.Sprintf("the %s scope (%s)", p.scope, p.targets[p.scope])},
	} {
		lines = append(lines, tuikit.Wrap(fmt.Sprintf("%-9s %s", kv[0], textsafe.SanitizeLine(kv[1])), max(width, 10)))
	}
	for _, l := range p.plan.BundleLines() {
		lines = append(lines, textsafe.SanitizeLine(l))
	}
	if p.wait.busy() {
		lines = append(lines, "", p.wait.view(st))
	}
	return strings.Join(lines, "\n")
}

// fieldNotes marks a field as required and/or secret.
func fieldNotes(f registry.Field) string {
	var n []string
	if f.Input.IsRequired {
		n = append(n, "required")
	}
	if f.Input.IsSecret {
		n = append(n, "secret")
	}
	if len(n) == 0 {
		return ""
	}
	return " (" + strings.Join(n, ", ") + ")"
}

// openForm asks for the server's name and fields; submitting builds the
// definition and shows it for confirmation.
func (p *planModal) openForm() (tuikit.Modal, tea.Cmd) {
	nameField := registry.Field{ID: "name", Key: "server name", Input: registry.Input{
		Description: "the name to save it under: letters, digits, _ and -", IsRequired: true, Default: registry.LocalName(p.entry.Name),
	}}
	fields := append([]registry.Field{nameField}, p.plan.Fields...)
	sf, err := form.Parse(installSchema(fields))
	if err != nil {
		p.planErr = err.Error()
		return p, nil
	}
	intro := []string{fmt.Sprintf("%s, into the %s scope. Secrets go to mcpdeck's secret store (keychain), never into the file.", p.plan.Runs(), p.scope)}
	fm := form.New(p.env, "Add "+p.entry.Name, intro, sf)
	fm.Verb = "review"
	fm.Cancel = func() (tuikit.Modal, tea.Cmd) { return p, nil }
	fm.Submit = func(args map[string]any) (tuikit.Modal, tea.Cmd) {
		byLabel := map[string]string{}
		for k, v := range args {
			byLabel[k] = fmt.Sprint(v)
		}
		values := installValues(fields, byLabel)
		name := values["name"]
		cfg, secrets, err := p.plan.Build(values, registry.SecretsInStore)
		if err == nil {
			err = model.CheckServerName(name)
		}
		if err == nil && model.NormalizeName(name) != name {
			err = fmt.Errorf("the server name %q may contain only letters, digits, _ and -", name)
		}
		if err != nil {
			return fm.Fail(err.Error())
		}
		return &confirmModal{deps: p.deps, back: p, name: name, scope: p.scope, path: p.targets[p.scope], cfg: cfg, secrets: secrets, plan: p.plan}, nil
	}
	return fm, fm.Init()
}
