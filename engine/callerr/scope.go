package callerr

import (
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// ErrMissingScope means the server refused a request because the person's
// sign-in lacks a scope it wants: signing in again grants it.
var ErrMissingScope = errors.New("sign-in lacks a scope")

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
