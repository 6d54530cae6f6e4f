// Package tuikit holds what the TUI's screens share without knowing one
// another: the Modal interface the root knows every prompt by, the
// environment a modal is built with (Env), the keys prompts and screens
// share (Keys) and the layout helpers they draw with. It imports no
// screen, so the screens in their own packages (ui/form, ui/addserver,
// ui/sampling) and the root can all use it.
package tuikit

import (
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
)

// Modal is a screen drawn over the list or the detail view: a picker, a
// form, a running call, a result, a prompt. Modals stack; the top one gets
// the keys, every one gets the messages marked Broadcast. The root knows a
// modal only through this interface: what it needs to know, the modal says
// itself.
type Modal interface {
	// Update returns the modal that replaces this one (nil closes it).
	Update(msg tea.Msg) (Modal, tea.Cmd)
	View(width, height int) string
	// Help lists the keys valid in this modal, for the footer. A modal
	// that lists the quit key lets q quit; one that binds the help key
	// handles it itself (the help screen closes on it).
	Help() []key.Binding
	// TakesText reports whether keys are text now (a form's field, a
	// query, a filter being typed): letters are then the modal's, not the
	// root's (q, ?), and help is on its other key (f1).
	TakesText() bool
	// Answers is the question the modal answers, nil for none: a server's
	// request waiting for the person, a sign-in, the approval prompt. It
	// is comparable, and the root finds a modal by it: to drop the prompt
	// of a request the server withdrew, to give a request its fallback
	// answer when the person quits, to tell a prompt about a change.
	Answers() any
}

// Broadcast marks a message that every open modal is given, not only the
// one on top: the result of a request finds the modal that started it by
// its id, wherever that modal is in the stack.
type Broadcast interface{ Broadcast() }

// Reported marks a message whose outcome the root's status line words (an
// engine action, an install): the line, and whether it is a failure.
type Reported interface {
	Report() (line string, failed bool)
}
