package status

import (
	"fmt"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Flood is the notice for a server's latest burst of requests mcpdeck
// declined because too many already waited for an answer, "" when there
// was none. The UIs show it once per burst (a new Flood.Seq).
func Flood(s *engine.ServerSnapshot) string {
	f := s.Flood
	if f.Seq == 0 {
		return ""
	}
	return fmt.Sprintf("server %s sent %d requests at once; mcpdeck lets %d wait for an answer and declined the rest (%d)",
		textsafe.SanitizeLine(s.Name), f.Sent, f.Limit, f.Declined)
}
