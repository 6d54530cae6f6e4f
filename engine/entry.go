package engine

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/mcpdeck/mcpdeck/model"
)

const closeTimeout = time.Second

func defaultRand() float64 { return rand.Float64() }

// entry is the engine's private record of one server. Guarded by Engine.mu.
type entry struct {
	srv model.Server
	s   ServerSnapshot // what the next snapshot shows

	gen      uint64             // bumped per attempt; stale results are dropped
	cancel   context.CancelFunc // ends the current attempt or connection
	conn     session
	timer    Timer // scheduled retry
	runnable bool  // srv.Runnable() when last configured

	attempt     int // retry attempt in progress (0 = first connect)
	transient   int // transient call errors in a row
	quickCrash  int // crashes within crashWindow of connecting, in a row
	connectedAt time.Time
	schemas     map[string]*inputSchema // compiled input schemas by tool name
	why         []string                // whyNot(srv): PATH lookups, so computed outside e.mu (Reload, Reconnect)
	secrets     []string                // model.SecretValues(srv.Config), masked in error text (redact)
	refetching  [numLists]bool          // a list refetch is running
	dirty       [numLists]bool          // list_changed arrived during the refetch
	// toolsAuthErr is the authorization refusal (401/403) of the last tools
	// list, nil when it was given: a call then reports it, not "no such tool".
	toolsAuthErr error
}

// stopRetry cancels a scheduled retry.
func (en *entry) stopRetry() {
	if en.timer != nil {
		en.timer.Stop()
		en.timer = nil
	}
	en.s.NextRetry = time.Time{}
}

// active reports whether the server is connected, connecting, or waiting
// for a retry.
func (en *entry) active() bool {
	return en.conn != nil || en.cancel != nil || en.timer != nil
}

// dropCaches forgets everything learned from a connection so that a
// reconnect never shows stale lists.
func (en *entry) dropCaches() {
	en.s.Tools, en.s.Resources, en.s.Templates, en.s.Prompts, en.s.Skills = nil, nil, nil, nil, nil
	en.s.Instructions, en.s.ServerInfo, en.s.ProtocolVersion = "", Implementation{}, ""
	en.schemas = nil
}
