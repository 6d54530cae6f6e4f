package ui

// actionMsg reports that an engine action finished (actiontable.go).
type actionMsg struct {
	verb, server string
	err          error
}
