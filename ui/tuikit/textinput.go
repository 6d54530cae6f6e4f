package tuikit

import (
	"github.com/charmbracelet/bubbles/textarea"
	"github.com/charmbracelet/bubbles/textinput"
)

// The bubbles text fields read the clipboard on ctrl+v by running a
// clipboard program found on PATH (xclip, xsel, wl-paste, pbpaste), which
// would start a program outside mcpdeck's one launcher and its policy.
// The fields here have that key off: a terminal pastes into them by
// itself (bracketed paste), over SSH too, and starts nothing.

// NewTextInput is textinput.New without the clipboard key.
func NewTextInput() textinput.Model {
	ti := textinput.New()
	ti.KeyMap.Paste.SetEnabled(false)
	return ti
}

// NewTextArea is textarea.New without the clipboard key.
func NewTextArea() textarea.Model {
	ta := textarea.New()
	ta.KeyMap.Paste.SetEnabled(false)
	return ta
}
