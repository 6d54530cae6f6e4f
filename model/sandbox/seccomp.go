package sandbox

import "errors"

// ErrNoSocketFilter is a system whose processor mcpdeck cannot write a
// socket filter for: a sandboxed server does not start there (never
// without the filter) unless its definition lets it reach unix sockets.
var ErrNoSocketFilter = errors.New("the sandbox's socket filter exists for x86_64 and arm64 Linux only: this server cannot be sandboxed here (a user-scope definition may list sandbox.sockets to run without the filter)")
