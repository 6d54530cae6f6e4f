package model

import (
	"errors"
)

// Sentinel errors of the configuration API. Callers test them with errors.Is;
// every returned error wraps one of them together with the file, server or
// field it concerns, so the message alone is enough for a person.
var (
	// ErrNotFound: the named server is not defined where it was looked for.
	ErrNotFound = errors.New("not found")
	// ErrExists: a server of that name is already defined in the target file.
	ErrExists = errors.New("already exists")
	// ErrInvalid: a name, scope, definition or file is not acceptable.
	ErrInvalid = errors.New("invalid")
	// ErrFileUnusable: the file to edit cannot be parsed or has the wrong
	// shape, so it was left as it was. Such errors are also ErrInvalid; this
	// one tells a caller writing many servers (an import) that the target
	// file, not the definition at hand, is at fault and no write will succeed.
	ErrFileUnusable = errors.New("file cannot be edited")
	// ErrWantsHeader: a remote server asked for credentials (401) but
	// offers no OAuth sign-in, so signing in cannot help: it takes a token
	// in a header, which its definition must send. The sign-in code says
	// it; the transports treat it as final (reconnecting cannot help).
	ErrWantsHeader = errors.New("the server asks for a token but offers no OAuth sign-in: " +
		"give it the token in a header (mcpdeck mcp add NAME URL -H \"Authorization: Bearer ${TOKEN}\", or \"headers\" in its definition)")
	// ErrHeaderRefused: a remote server without OAuth sign-in refused the
	// token the definition's Authorization header sends.
	ErrHeaderRefused = errors.New("the server refused the token its Authorization header sends (HTTP 401) and offers no OAuth sign-in: check the token")
)
