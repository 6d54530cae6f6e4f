package ui

import "github.com/mcpdeck/mcpdeck/ui/status"

// statusHints are the keys status lines suggest ("A approve · x reject"),
// read from the action table's bindings in k, so that a remapped key shows
// as remapped.
func statusHints(k *KeyMap) status.Hints {
	keyOf := func(id ActionID) string { return k.Action(id).Help().Key }
	return status.Hints{
		Approve: keyOf(ActApprove), Reject: keyOf(ActReject), Authenticate: keyOf(ActAuthenticate),
		Retry: keyOf(ActReconnect), Stop: keyOf(ActStopRetrying), Enable: keyOf(ActEnable),
	}
}
