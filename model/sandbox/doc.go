// Package sandbox turns the sandbox a server's definition asks for
// (model.Sandbox) into what the operating system enforces: Resolve works
// out the profile — which paths the server may read and write, which
// stay closed whatever is listed, where it may connect — from facts the
// launcher gathers; Mechanism.Wrap wraps the server's program in the OS
// mechanism (bubblewrap on Linux, sandbox-exec on macOS, none elsewhere:
// then the server does not run). Only model/launch calls Wrap, so a
// sandboxed server starts the one way every program starts.
package sandbox
