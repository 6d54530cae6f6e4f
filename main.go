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
	if len(os.Args) > 1 && os.Args[1] == egress.ShimArg {
		// Inside a sandbox whose network is a host list: relay to the
		// proxy and run the server (transports/egress).
		os.Exit(egress.RunShim(os.Args[1:]))
	}
	os.Exit(cli.Execute(os.Args[1:]))
}
