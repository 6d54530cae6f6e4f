// Command mcpdeck is a terminal connection manager for MCP servers.
package main

import (
	"os"

	"github.com/mcpdeck/mcpdeck/ui/cli"
	"github.com/mcpdeck/mcpdeck/ui/noquery"
)

func main() {
	noquery.Restore() // before anything can start a process that inherits CI
	os.Exit(cli.Execute(os.Args[1:]))
}
