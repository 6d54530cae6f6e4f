package tuikit

import (
	"context"

	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// Env is what every modal is built with: the context bounding its work
// (quitting cancels it), the styles, the keys, and the terminal's size,
// which the root keeps current.
type Env struct {
	Ctx    context.Context
	St     *styles.Styles
	Keys   *Keys
	Width  int
	Height int
	lastID int
}

// NextID numbers a request a modal starts, so that a late answer to an
// abandoned one is told apart and dropped.
func (e *Env) NextID() int {
	e.lastID++
	return e.lastID
}

// BodySize is the area a modal may draw in (the screen minus header,
// status line and footer).
func (e *Env) BodySize() (int, int) { return e.Width, max(e.Height-3, 1) }
