package jsonfile

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/model"
)

// fileUnusableError is an ErrInvalid that is also ErrFileUnusable; its text
// is that of an ErrInvalid ("invalid: <file>: <why> (the file was not
// changed)").
type fileUnusableError struct{ msg string }

func (e *fileUnusableError) Error() string {
	return model.ErrInvalid.Error() + ": " + e.msg + " (the file was not changed)"
}

func (e *fileUnusableError) Is(target error) bool {
	return target == model.ErrInvalid || target == model.ErrFileUnusable
}

// Unusable builds the refusal to edit a file that cannot be used.
func Unusable(format string, a ...any) error {
	return &fileUnusableError{msg: fmt.Sprintf(format, a...)}
}
