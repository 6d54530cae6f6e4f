package ui

import (
	"github.com/charmbracelet/bubbles/key"

	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// KeyMap is every key the TUI understands, with the help text shown by the
// footer and by the full help (?): the keys prompts and screens share
// (tuikit.Keys), and the keys the action table owns (actiontable.go).
type KeyMap struct {
	tuikit.Keys
	// Actions remaps the keys the action table owns, by action; an action
	// without an entry keeps the table's key. An action on a shared key
	// (open, back, filter, help, quit) follows the field of Keys instead.
	Actions map[ActionID]key.Binding
}

// DefaultKeyMap returns the TUI's keys.
func DefaultKeyMap() KeyMap { return KeyMap{Keys: tuikit.DefaultKeys()} }

// Action is the key of action id.
func (k *KeyMap) Action(id ActionID) key.Binding { return actionTable()[id].binding(k) }

// helpGroup is the column of the help screen (?) that lists an action.
type helpGroup int

const (
	notListed helpGroup = iota // its key is listed by another action (enter)
	groupMove
	groupServers
	groupUse
	numHelpGroups
)

// HelpGroupTitles name the groups of FullHelp, in the same order. A
// letter means one thing everywhere: A approves and x rejects in the list
// and in the approval prompt alike, a signs in; the prompt's own keys (*
// approve all, esc decide later) have their column.
func (k *KeyMap) HelpGroupTitles() []string {
	return []string{"Move", "Servers", "Use", "In prompts"}
}

// FullHelp is the help screen (?), one column per group of keys: the
// movement keys, then the action table's keys by group, in its order (the
// footer's), then the prompts' keys.
func (k *KeyMap) FullHelp() [][]key.Binding {
	var groups [numHelpGroups][]key.Binding
	groups[groupMove] = []key.Binding{k.Up, k.Down, k.Top, k.Bottom, k.PageUp, k.PageDown}
	for _, a := range actionTable() {
		groups[a.help] = append(groups[a.help], a.binding(k))
	}
	return [][]key.Binding{
		groups[groupMove], groups[groupServers], groups[groupUse],
		{k.ApproveOne, k.ApproveAll, k.RejectOne, k.Later, k.Submit, k.Decline, k.Cancel, k.OpenURL, k.CopyURL},
	}
}
