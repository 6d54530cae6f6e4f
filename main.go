// Command mcpdeck is a terminal connection manager for MCP servers.
package main

import (
	"os"

	"github.com/mcpdeck/mcpdeck/ui/cli"
)

func main() {
	os.Exit(cli.Execute(os.Args[1:]))
}
