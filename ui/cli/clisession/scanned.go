package clisession

import (
	"context"

	"github.com/mcpdeck/mcpdeck/engine"
)

// WaitScanned waits until the engine has scanned what each named server
// listed (engine.PinReport.Scanning), so a command shows every finding.
func (s *Session) WaitScanned(ctx context.Context, names []string) error {
	for {
		s.Last = latest(s.Last, s.Eng.Snapshot())
		busy := false
		for _, n := range names {
			if srv, ok := s.Server(n); ok && srv.Pins.Scanning {
				busy = true
			}
		}
		if !busy {
			return nil
		}
		if err := s.next(ctx); err != nil {
			return err
		}
	}
}

// latest is the newer of two snapshots.
func latest(a, b engine.Snapshot) engine.Snapshot {
	if b.Seq > a.Seq {
		return b
	}
	return a
}
