package clinames

import (
	"errors"
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ServerNames lists the configured servers' names, for a did-you-mean.
func ServerNames(res *config.Resolved) []string {
	if res == nil {
		return nil
	}
	names := make([]string, len(res.Servers))
	for i, s := range res.Servers {
		names[i] = s.Name
	}
	return names
}

// Kinds of item a request names on a server, for UnknownItemHint.
const (
	ItemTool     = "tool"
	ItemPrompt   = "prompt"
	ItemResource = "resource"
)

// listedNames is what srv lists of kind: tool and prompt names, resource URIs.
func listedNames(srv engine.ServerSnapshot, kind string) []string {
	var out []string
	switch kind {
	case ItemTool:
		for _, t := range srv.Tools {
			out = append(out, t.Name)
		}
	case ItemPrompt:
		for _, p := range srv.Prompts {
			out = append(out, p.Name)
		}
	case ItemResource:
		for _, r := range srv.Resources {
			out = append(out, r.URI)
		}
	}
	return out
}

// UnknownItemHint adds a did-you-mean to err, a failed request for the
// tool, prompt or resource name: when srv does not list name, the listed
// one a typo most likely meant. A tool's name is checked by the engine
// before the call (engine.ErrUnknownTool); a prompt or resource the server
// refused is looked up here only after its answer, so an item the server
// serves without listing it still works.
func UnknownItemHint(err error, srv engine.ServerSnapshot, kind, name string) error {
	if err == nil || errors.Is(err, engine.ErrDenied) {
		return err
	}
	listed := listedNames(srv, kind)
	for _, n := range listed {
		if n == name {
			return err
		}
	}
	if hint := DidYouMean(name, listed); hint != "" {
		return fmt.Errorf("%w; %s", err, hint)
	}
	if kind == ItemTool && errors.Is(err, engine.ErrUnknownTool) {
		// nothing close, and surely not there: where to see what there is
		return fmt.Errorf("%w (%s)", err, ListingCommand(kind, srv.Name))
	}
	return err
}

// ListingCommand is the command that lists the items of kind srv offers:
// "mcpdeck tools everything lists them".
func ListingCommand(kind, server string) string {
	return "mcpdeck " + kind + "s " + textsafe.QuoteArg(server) + " lists them"
}
