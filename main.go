// Command mcpdeck is a terminal connection manager for MCP servers.
package main

import (
	"os"

	"github.com/mcpdeck/mcpdeck/transports/egress"
	"github.com/mcpdeck/mcpdeck/ui/cli"
	"github.com/mcpdeck/mcpdeck/ui/noquery"
)

func main() {
	noquery.Restore() // before anything can start a process that inherits CI
	if code, ok := egress.RunHelper(os.Args[1:]); ok {
		// Inside a sandbox whose network is a host list: relay to the
		// proxy and run the server (transports/egress).
		os.Exit(code)
	}
	os.Exit(cli.Execute(os.Args[1:]))
}
