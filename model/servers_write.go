package model

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// CheckServerName refuses names that cannot be stored or addressed: empty,
// "all" (it means every server in enable/disable/approve), invalid UTF-8, or
// holding a HiddenRune (shown cleaned, "github" and "github" followed by
// U+2064 would look like one server).
func CheckServerName(name string) error {
	if strings.TrimSpace(name) == "" {
		return fmt.Errorf("%w: a server name must not be empty", ErrInvalid)
	}
	if name == "all" {
		return fmt.Errorf("%w: %q is reserved (it means every server)", ErrInvalid, name)
	}
	if !utf8.ValidString(name) {
		return fmt.Errorf("%w: server name %q is not valid UTF-8", ErrInvalid, name)
	}
	if r, ok := textsafe.FirstHidden(name); ok {
		return fmt.Errorf("%w: server name %q contains %U, an invisible or control character", ErrInvalid, name, r)
	}
	return nil
}
