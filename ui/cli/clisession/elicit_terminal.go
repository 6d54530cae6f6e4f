package clisession

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"strings"

	"github.com/charmbracelet/x/term"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/lock"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/form"
)

// elicitAtTerminal answers a server's elicitation request by asking the
// person at the terminal, a line at a time, as `mcp approve` asks y/N: a
// form's fields with their defaults and choices (the TUI form's checks),
// or a URL to visit and enter once done. d declines, c or end of input
// (ctrl+d) cancels. Requests are asked one after the other.
func (f *EngineFlags) elicitAtTerminal(_ context.Context, req engine.ElicitRequest) (resp engine.ElicitResponse, err error) {
	lock.With(&f.askMu, func() { resp, err = f.askTerminal(req) })
	return resp, err
}

// errEOF ends the questions: the person closed the input.
var errEOF = errors.New("end of input")

func (f *EngineFlags) askTerminal(req engine.ElicitRequest) (engine.ElicitResponse, error) {
	g := f.Globals
	out := g.Stdout
	what := ""
	if req.Request != "" {
		what = " (for " + req.Request + ")"
	}
	if req.Mode == "url" {
		fmt.Fprintln(out, textsafe.SanitizeLine(req.Server+" needs you to visit a page"+what+":"))
		if msg := textsafe.SanitizeLine(req.Message); msg != "" {
			fmt.Fprintln(out, "  "+msg)
		}
		if u, err := url.Parse(req.URL); err == nil && u.Host != "" {
			fmt.Fprintln(out, "  It leads to "+textsafe.SanitizeLine(u.Host)+":")
		}
		fmt.Fprintln(out, "  "+textsafe.SanitizeLine(req.URL))
		switch a, err := f.line("Press enter once you are done there (d declines, c cancels): "); {
		case err != nil:
			return cancelled(err)
		case a == "d":
			return engine.ElicitResponse{Action: engine.ElicitDecline}, nil
		case a == "c":
			return engine.ElicitResponse{Action: engine.ElicitCancel}, nil
		}
		return engine.ElicitResponse{Action: engine.ElicitAccept}, nil
	}
	sch, err := form.Parse(req.Schema)
	if err != nil {
		fmt.Fprintln(g.Stderr, textsafe.SanitizeLine("mcpdeck: declined "+req.Server+"'s request"+what+": "+err.Error()))
		return engine.ElicitResponse{Action: engine.ElicitDecline}, nil
	}
	fmt.Fprintln(out, textsafe.SanitizeLine(req.Server+" asks"+what+":"))
	for _, l := range strings.Split(strings.TrimSpace(textsafe.Sanitize(req.Message)), "\n") {
		fmt.Fprintln(out, "  "+l)
	}
	switch a, err := f.line("Answer it? [Y/d/c] (yes, decline, cancel) "); {
	case err != nil:
		return cancelled(err)
	case a == "d" || a == "decline":
		return engine.ElicitResponse{Action: engine.ElicitDecline}, nil
	case a == "c" || a == "cancel":
		return engine.ElicitResponse{Action: engine.ElicitCancel}, nil
	}
	for {
		for _, q := range sch.Questions() {
			if err := f.askField(sch, q); err != nil {
				return cancelled(err)
			}
		}
		args, err := sch.Values()
		if err == nil {
			err = sch.Validate(args)
		}
		if err == nil {
			return engine.ElicitResponse{Action: engine.ElicitAccept, Content: args}, nil
		}
		fmt.Fprintln(out, textsafe.SanitizeLine("  "+err.Error()+": once more (enter keeps what you typed)"))
	}
}

// askField asks one field until what is typed reads as its type.
func (f *EngineFlags) askField(sch *form.Schema, q form.Question) error {
	if q.Help != "" {
		fmt.Fprintln(f.Globals.Stdout, "  "+q.Help)
	}
	for {
		var text string
		var err error
		if q.Secret {
			text, err = f.hidden("  " + q.Prompt + ": ")
		} else {
			text, err = f.line("  " + q.Prompt + ": ")
		}
		if err != nil {
			return err
		}
		if err := sch.SetText(q.Name, text); err != nil {
			fmt.Fprintln(f.Globals.Stdout, textsafe.SanitizeLine("  "+err.Error()))
			continue
		}
		return nil
	}
}

// line asks prompt and reads a line; end of input is errEOF.
func (f *EngineFlags) line(prompt string) (string, error) {
	fmt.Fprint(f.Globals.Stdout, prompt)
	s, err := f.Globals.Input().ReadString('\n')
	if errors.Is(err, io.EOF) && s == "" {
		fmt.Fprintln(f.Globals.Stdout)
		return "", errEOF
	}
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("reading your answer: %w", err)
	}
	return strings.TrimSpace(s), nil
}

// hidden reads a line without echo (a password field).
func (f *EngineFlags) hidden(prompt string) (string, error) {
	in, ok := f.Globals.Stdin.(*os.File)
	if !ok {
		return f.line(prompt)
	}
	fmt.Fprint(f.Globals.Stdout, prompt)
	b, err := term.ReadPassword(in.Fd())
	fmt.Fprintln(f.Globals.Stdout)
	if err != nil {
		return "", fmt.Errorf("reading your answer: %w", err)
	}
	return strings.TrimSpace(string(b)), nil
}

// cancelled is the answer when the person closed the input (or it failed).
func cancelled(err error) (engine.ElicitResponse, error) {
	if errors.Is(err, errEOF) {
		return engine.ElicitResponse{Action: engine.ElicitCancel}, nil
	}
	return engine.ElicitResponse{Action: engine.ElicitCancel}, err
}
