package model

import (
	"errors"
	"fmt"
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

// fileUnusableError is an ErrInvalid that is also ErrFileUnusable; its text
// is that of an ErrInvalid ("invalid: <file>: <why> (the file was not
// changed)").
type fileUnusableError struct{ msg string }

func (e *fileUnusableError) Error() string {
	return ErrInvalid.Error() + ": " + e.msg + " (the file was not changed)"
}

func (e *fileUnusableError) Is(target error) bool {
	return target == ErrInvalid || target == ErrFileUnusable
}

// Unusable builds the refusal to edit a file that cannot be used.
func Unusable(format string, a ...any) error {
	return &fileUnusableError{msg: fmt.Sprintf(format, a...)}
}
