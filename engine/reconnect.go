package engine

import (
	"context"

	"github.com/mcpdeck/mcpdeck/model"
)

// ReconnectOutcome is Reconnect for one server, waiting for that attempt's
// outcome, so that whoever asked can say whether it worked: the server's
// snapshot once it connected, failed, needs sign-in, or scheduled its next
// attempt (a retry now that failed during a reconnect sequence).
func (e *Engine) ReconnectOutcome(ctx context.Context, name string) (s ServerSnapshot, err error) {
	if err = e.Reconnect(ctx, name); err != nil {
		return s, err
	}
	for {
		var changed chan struct{}
		err = e.withEntry(name, func(en *entry) error {
			if sh := en.st.Shown(); sh.State == model.StatePending && sh.Reason.Kind == model.ReasonConnecting {
				changed = e.changed // the attempt runs
				return nil
			}
			en.snapshot(&s)
			return nil
		})
		if err != nil || changed == nil {
			return s, err
		}
		select {
		case <-changed:
		case <-ctx.Done():
			return s, ctx.Err()
		}
	}
}
