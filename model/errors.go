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
)
