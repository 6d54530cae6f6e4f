package ui

import "github.com/mcpdeck/mcpdeck/ui/status"

// statusHints are the keys status lines suggest ("A approve · x reject"),
// read from k so that a remapped key shows as remapped.
func statusHints(k *KeyMap) status.Hints {
	return status.Hints{
		Approve: k.Approve.Help().Key, Reject: k.Reject.Help().Key, Authenticate: k.Authenticate.Help().Key,
		Retry: k.Reconnect.Help().Key, Stop: k.CancelRetry.Help().Key, Enable: k.Enable.Help().Key,
	}
}
