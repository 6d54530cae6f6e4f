package sandbox

import (
	"errors"
	"os"
)

// ErrUnavailable is a sandbox this system cannot provide: the server does
// not run (never unsandboxed).
var ErrUnavailable = errors.New("no sandbox mechanism")

// UnavailableError says, in one sentence, what to install for a sandbox.
// It is ErrUnavailable.
type UnavailableError struct{ Sentence string }

func (e *UnavailableError) Error() string { return e.Sentence }

// Is makes errors.Is(err, ErrUnavailable) true.
func (e *UnavailableError) Is(target error) bool { return target == ErrUnavailable }

// Mechanism is the OS facility that enforces a profile, found by mcpdeck
// at a fixed system path (never through a server's PATH or the project).
type Mechanism struct {
	Name string // "bubblewrap", "sandbox-exec"
	Path string // its absolute file
	// VersionArgs print its version ("--version"); nil when it has none.
	VersionArgs []string
	// ProbeArgs run /usr/bin/true (or /bin/true) in the smallest sandbox:
	// whether the system lets it make one (user namespaces may be off).
	ProbeArgs []string
}

// Wrapped is a server's program wrapped in the mechanism: what the
// launcher starts instead, with the environment to give it.
type Wrapped struct {
	Path string
	Args []string // argv, Args[0] the mechanism's name
	Env  []string
	// ExtraFiles go to the mechanism as descriptors 3, 4...; the launcher
	// closes its copies once started.
	ExtraFiles []*os.File
	// Ready, when set, says the sandbox exists: the mechanism writes to it
	// once its namespaces are made, and closes it without a word when it
	// could not make them. The launcher reads it (ErrNoNamespaces) and
	// closes it.
	Ready *os.File
}

// ErrNoNamespaces is a mechanism that could not make the sandbox's
// namespaces (unprivileged user namespaces off, a container that forbids
// them): the server did not run.
var ErrNoNamespaces = errors.New("bubblewrap could not create the sandbox's namespaces (unprivileged user namespaces may be disabled here: run mcpdeck doctor)")

// firstExisting is the first of paths that exists (exists says), or "".
func firstExisting(paths []string, exists func(string) bool) string {
	for _, p := range paths {
		if exists(p) {
			return p
		}
	}
	return ""
}
