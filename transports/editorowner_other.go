//go:build !linux

package transports

// ownerKnown: elsewhere mcpdeck cannot tell who owns a loopback socket
// without privileges it lacks; the lock file's own checks (owner, mode)
// are the whole guard, as SECURITY.md states.
const ownerKnown = false
