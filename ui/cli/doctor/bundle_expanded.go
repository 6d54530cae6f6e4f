package doctor

import (
	"fmt"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/config"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// expansionNotes names, server by server, each value ${VAR} or
// ${secret:NAME} put into a definition (model.Server.Expanded), where it
// went and whether the bundle masks it: REDACTION.txt lists them, so a
// key in a URL's path is seen to be masked too.
func expansionNotes(res *config.Resolved) []string {
	var out []string
	for _, s := range res.Servers {
		for _, x := range s.Expanded {
			fate := "masked wherever it appeared"
			if !textsafe.WorthMasking(x.Value) {
				fate = "kept: too short, or a short number, to tell from ordinary text"
			}
			out = append(out, fmt.Sprintf("server %s, %s: the value of %s, %s", s.Name, x.Field, x.Ref, fate))
		}
	}
	return out
}

// writeExpansions adds the expansionNotes to REDACTION.txt.
func writeExpansions(s *strings.Builder, notes []string) {
	if len(notes) == 0 {
		return
	}
	s.WriteString("\nValues that ${VAR} and ${secret:NAME} put into server definitions:\n")
	for _, n := range notes {
		s.WriteString("- " + n + "\n")
	}
}
