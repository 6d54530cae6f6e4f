package clierr

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// UsageError is a mistake in how a command was called: exit code 2.
type UsageError struct{ msg string }

func (e *UsageError) Error() string { return e.msg }

// Usagef returns a usage error (exit code 2).
func Usagef(format string, a ...any) error { return &UsageError{msg: fmt.Sprintf(format, a...)} }

// SilentError fails the command (exit 1) without another message: the
// command already explained the failure on stderr.
type SilentError struct{}

func (SilentError) Error() string { return "failed" }

// Sentence renders an error as one sentence: the sentinel prefixes of model
// errors ("invalid: ", "not found: ") are dropped, the first letter kept as
// written (file paths and names), and a full stop added.
func Sentence(err error) string {
	msg := err.Error()
	for _, s := range []error{model.ErrInvalid, model.ErrNotFound, model.ErrExists} {
		msg = strings.TrimPrefix(msg, s.Error()+": ")
	}
	msg = strings.Join(strings.Fields(msg), " ")
	if !strings.HasSuffix(msg, ".") && !strings.HasSuffix(msg, "?") {
		msg += "."
	}
	return msg
}

// Cancelled turns the context error of an interrupted command (Ctrl-C)
// into a one-word message; other errors pass through.
func Cancelled(err error) error {
	if errors.Is(err, context.Canceled) {
		return errors.New("cancelled")
	}
	return err
}

// Exit codes of the mcpdeck process.
const (
	ExitOK      = 0
	ExitFailure = 1
	ExitUsage   = 2
	// ExitInterrupted is the shell's convention for a command ended by
	// Ctrl-C (128 + SIGINT), so scripts can tell "stopped" from "failed".
	ExitInterrupted = 130
)
