package cliout

import (
	"fmt"
	"io"
	"strings"
)

// ReportError tells the person why the command failed, on stderr: one
// sentence ("mcpdeck: …"), or under --json one JSON object
// {"error": "…", "usage": "mcpdeck call --help"} so a script reading JSON
// never has to parse prose. usage names the help to read for a usage error
// and is empty otherwise.
func ReportError(stderr io.Writer, asJSON bool, msg, usage string) {
	if asJSON {
		doc := struct {
			Error string `json:"error"`
			Usage string `json:"usage,omitempty"`
		}{Error: msg}
		if usage != "" {
			doc.Usage = usage + " --help"
		}
		if WriteJSONLine(stderr, doc) == nil {
			return
		}
	}
	if usage != "" {
		fmt.Fprintf(stderr, "mcpdeck: %s (run '%s --help' for usage).\n", strings.TrimSuffix(msg, "."), usage)
		return
	}
	fmt.Fprintln(stderr, "mcpdeck: "+msg)
}
