package engine

import (
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

// transition asks the reducer to move en to state to from the state en's
// snapshot shows, as step does on every move, and reports whether the
// model's table allowed it. Only tests call it: in the engine every move is
// decided by step.
func (e *Engine) transition(en *entry, to model.State, reason string) bool {
	r := reducer{st: en.st, now: time.Now()}
	r.st.state = en.s.State
	return r.move(to, reason, model.Reason{})
}
