package model

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// maxToolNameLen is the limit MCP clients and model APIs put on tool names
// (^[a-zA-Z0-9_-]{1,64}$).
const maxToolNameLen = 64

// NormalizeName replaces every character outside [a-zA-Z0-9_-] with '_' (one
// '_' per rune, so multi-byte characters do not multiply), making a server or
// tool name safe inside an exposed tool name and comparable across files.
func NormalizeName(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for _, r := range s {
		if r == '_' || r == '-' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return b.String()
}

// ToolName builds the exposed name mcp__<server>__<tool>. Names longer than
// maxToolNameLen are cut and end with '_' plus 8 hex digits of the SHA-256 of
// the full name, so the result is deterministic and two long names that share
// a prefix still differ.
func ToolName(server, tool string) string {
	return cutName("mcp__" + NormalizeName(server) + "__" + NormalizeName(tool))
}

// ServeName builds the name `mcpdeck serve` gives a server's tool or prompt
// when it offers every server as one: <server>__<name>, normalized and cut
// to maxToolNameLen like ToolName, so two names meet here exactly when their
// ToolName meet (the collisions the engine marks).
func ServeName(server, name string) string {
	return cutName(NormalizeName(server) + "__" + NormalizeName(name))
}

// ServeOwnName is the name `mcpdeck serve` gives a tool or prompt when it
// offers it without its server's prefix: normalized and cut like
// ServeName, so it is a valid tool name too.
func ServeOwnName(name string) string {
	return cutName(NormalizeName(name))
}

// cutName keeps a name of at most maxToolNameLen characters; a longer one is
// cut and ends with '_' plus 8 hex digits of the SHA-256 of the full name.
func cutName(full string) string {
	if len(full) <= maxToolNameLen {
		return full
	}
	sum := sha256.Sum256([]byte(full))
	suffix := "_" + hex.EncodeToString(sum[:4])
	return full[:maxToolNameLen-len(suffix)] + suffix
}

// ToolPrefix is the exposed-name prefix shared by every tool of a server; it is
// what permission wildcards mcp__<server>__* match against.
func ToolPrefix(server string) string {
	return "mcp__" + NormalizeName(server) + "__"
}

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
