package engine

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ErrMissingScope means the server refused a request because the person's
// sign-in lacks a scope it wants: signing in again grants it.
var ErrMissingScope = errors.New("sign-in lacks a scope")

// ScopeReporter is implemented by an Authenticator that remembers which
// scopes a server refused requests for (403 insufficient_scope).
type ScopeReporter interface {
	MissingScopes(srv model.Server) []string
}

// ScopeError is a request refused for a scope the sign-in lacks.
type ScopeError struct {
	Server string
	Scopes []string
}

// Error names the scope and the command that grants it.
func (e *ScopeError) Error() string {
	word := "scope"
	if len(e.Scopes) > 1 {
		word = "scopes"
	}
	return fmt.Sprintf("sign-in to %s lacks %s %s: run mcpdeck auth %s",
		e.Server, word, textsafe.SanitizeLine(strings.Join(e.Scopes, " ")), textsafe.QuoteArg(e.Server))
}

// Unwrap makes errors.Is(err, ErrMissingScope) hold.
func (e *ScopeError) Unwrap() error { return ErrMissingScope }

// missingScopeLocked returns a *ScopeError when the Authenticator knows
// scopes the server refused en's requests for; nil otherwise. Callers hold
// e.mu (the lookup is in memory).
func missingScopeLocked(e *Engine, en *entry) error {
	sr, ok := e.opts.Auth.(ScopeReporter)
	if !ok || en == nil {
		return nil
	}
	if s := sr.MissingScopes(en.srv); len(s) > 0 {
		return &ScopeError{Server: en.srv.Name, Scopes: s}
	}
	return nil
}

// toolsRefusedLocked explains a tool missing from a tools list that the
// server refused to give for lack of authorization: that is the failure to
// report, not "no such tool". nil when the list was not refused.
func toolsRefusedLocked(e *Engine, en *entry) error {
	if en.lists.toolsAuthErr == nil {
		return nil
	}
	if err := missingScopeLocked(e, en); err != nil {
		return err
	}
	return fmt.Errorf("server %s refused to list its tools: %s; run mcpdeck auth %s",
		en.srv.Name, e.errs.text(en, en.lists.toolsAuthErr), textsafe.QuoteArg(en.srv.Name))
}
