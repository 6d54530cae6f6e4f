package ui

import "github.com/mcpdeck/mcpdeck/ui/status"

// statusHints are the keys status lines suggest ("A approve · x reject"),
// read from the action table's bindings in k, so that a remapped key shows
// as remapped.
func statusHints(k *KeyMap) status.Hints {
	keyOf := func(verb string) string {
		if a, ok := actionByVerb(verb); ok {
			return a.key(k).Help().Key
		}
		return ""
	}
	return status.Hints{
		Approve: keyOf("approve"), Reject: keyOf("reject"), Authenticate: keyOf("authenticate"),
		Retry: keyOf("reconnect"), Stop: keyOf("stop retrying"), Enable: keyOf("enable"),
	}
}
