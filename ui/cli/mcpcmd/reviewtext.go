package mcpcmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/scan"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
)

// printReview prints a server's changes as diffs: descriptions word by
// word ([-gone-]{+added+}), schemas line by line, every text escaped so a
// hidden character shows as \U000e0041; then each item's findings.
func printReview(g *clicore.Globals, srv engine.ServerSnapshot) {
	w, rep, name := g.Stdout, srv.Pins, textsafe.SanitizeLine(srv.Name)
	switch {
	case rep.Off != "":
		fmt.Fprintf(w, "%s is not pinned (%s): its tools are offered as they come.\n", name, textsafe.SanitizeLine(rep.Off))
		return
	case len(rep.Changes) == 0:
		fmt.Fprintf(w, "Nothing %s tells a model changed since you accepted it.\n", name)
	default:
		fmt.Fprintf(w, "%s: %d change(s), %d withheld until you accept them.\n", name, len(rep.Changes), rep.Withheld())
	}
	if rep.LockFile != "" {
		fmt.Fprintf(w, "Lock file: %s\n", textsafe.SanitizeLine(rep.LockFile))
	}
	for _, p := range rep.LockProblems {
		fmt.Fprintf(w, "Lock file problem (ignored): %s\n", textsafe.Escape(p))
	}
	for _, c := range rep.Changes {
		printChange(w, c)
		printFindings(w, rep.Findings, c.Kind, c.Name)
	}
	if len(rep.Changes) == 0 {
		printFindings(w, rep.Findings, "", "")
	}
	if rep.Withheld() > 0 {
		fmt.Fprintf(w, "\nAccept: mcpdeck mcp review %s --accept [TOOL...]\n", textsafe.QuoteArg(srv.Name))
	}
}

func printChange(w io.Writer, c pins.Change) {
	state := string(c.Status)
	if c.Lock && c.Status != pins.StatusLock {
		state += ", differs from lock"
	}
	if c.Withheld {
		state += ", withheld"
	}
	fmt.Fprintf(w, "\n%s: %s\n", itemName(c.Kind, c.Name), state)
	var old, cur pins.Item
	if c.Old != nil {
		old = *c.Old
	}
	if c.New != nil {
		cur = *c.New
	}
	textField(w, "title", old.Title, cur.Title)
	textField(w, "description", old.Description, cur.Description)
	schemaField(w, schemaLabel(c.Kind), old.Schema, cur.Schema)
	schemaField(w, "output schema", old.Output, cur.Output)
	schemaField(w, "annotations", old.Annotations, cur.Annotations)
	if old.Cut || cur.Cut {
		fmt.Fprintln(w, "  (texts longer than mcpdeck keeps are cut; the hash covers them whole)")
	}
}

func schemaLabel(k pins.Kind) string {
	switch k {
	case pins.KindPrompt:
		return "arguments"
	case pins.KindTemplate:
		return "template"
	case pins.KindTool, pins.KindInstructions:
	}
	return "input schema"
}

// textField prints a word diff of one text field, when it changed.
func textField(w io.Writer, label, old, cur string) {
	if old == cur {
		return
	}
	var b strings.Builder
	for _, p := range pins.Words(old, cur) {
		t := textsafe.Escape(p.Text)
		switch p.Op {
		case pins.Deleted:
			b.WriteString("[-" + t + "-]")
		case pins.Added:
			b.WriteString("{+" + t + "+}")
		case pins.Same:
			b.WriteString(t)
		}
	}
	fmt.Fprintf(w, "  %s: %s\n", label, b.String())
}

// schemaField prints a line diff of one schema, when it changed.
func schemaField(w io.Writer, label, old, cur string) {
	if old == cur {
		return
	}
	fmt.Fprintf(w, "  %s:\n", label)
	for _, p := range pins.SchemaLines(old, cur) {
		mark := "   "
		switch p.Op {
		case pins.Deleted:
			mark = "  -"
		case pins.Added:
			mark = "  +"
		case pins.Same:
		}
		fmt.Fprintf(w, "%s %s\n", mark, textsafe.Escape(p.Text))
	}
}

// printFindings prints the findings of one item (kind ""; every one).
func printFindings(w io.Writer, fs []scan.Finding, kind pins.Kind, name string) {
	for _, f := range fs {
		if kind != "" && (f.Kind != kind || f.Item != name) {
			continue
		}
		fmt.Fprintf(w, "  %s %s (%s, %s): %s\n      %s\n", f.Level, f.Rule, itemName(f.Kind, f.Item), f.Field, f.Message, f.Excerpt)
	}
}
