package sandbox

import "errors"

// FilterExecArg is the first argument that makes mcpdeck's executable
// load the socket filter on itself and then become the program that
// follows "--" (RunFiltered):
//
//	mcpdeck __mcpdeck-sandbox-filter -- PROGRAM ARGS...
//
// The network shim runs the server this way: the shim itself must open
// unix sockets (to mcpdeck's proxy), so the filter cannot be bubblewrap's,
// which would bind the shim too.
const FilterExecArg = "__mcpdeck-sandbox-filter"

// ErrNoSocketFilter is a system whose processor mcpdeck cannot write a
// socket filter for: a sandboxed server does not start there (never
// without the filter) unless its definition lets it reach unix sockets.
var ErrNoSocketFilter = errors.New("the sandbox's socket filter exists for x86_64 and arm64 Linux only: this server cannot be sandboxed here (a user-scope definition may list sandbox.sockets to run without the filter)")
