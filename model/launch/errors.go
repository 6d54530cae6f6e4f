package launch

import (
	"errors"
	"fmt"
)

// ErrBlocked is a program managed policy forbids; nothing was started.
var ErrBlocked = errors.New("forbidden by managed policy")

// BlockedError is a program managed policy forbids, with the rule that
// decided. It is ErrBlocked.
type BlockedError struct {
	Program string // the absolute file that was judged
	Rule    string // the list and the entry that decided
}

func (e *BlockedError) Error() string {
	return fmt.Sprintf("%s not run: managed policy forbids it (%s)", e.Program, e.Rule)
}

// Is makes errors.Is(err, ErrBlocked) true.
func (e *BlockedError) Is(target error) bool { return target == ErrBlocked }
