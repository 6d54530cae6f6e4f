package engine

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// The person may watch a resource of a server that offers subscriptions:
// the engine subscribes, re-reads the resource on every
// notifications/resources/updated about it, and renews the subscription
// on each new connection (a reconnect, a restarted server), since a server
// forgets its subscribers with the session.

// WatchedResource is a resource the person watches, with its latest content.
type WatchedResource struct {
	URI       string    `json:"uri"`
	Contents  []Content `json:"contents,omitempty"`
	ReadAt    time.Time `json:"readAt,omitzero"`    // when Contents was read
	ChangedAt time.Time `json:"changedAt,omitzero"` // when the server last said it changed
	Updates   int       `json:"updates"`            // update notifications received
	ReadError string    `json:"error,omitempty"`    // why the last subscribe or read failed
}

// watchState is one watched resource inside the engine: its snapshot, and
// whether a re-read runs (updates arriving meanwhile coalesce into one more).
type watchState struct {
	w              WatchedResource
	reading, again bool
}

// ErrNoSubscriptions refuses a watch on a server that does not offer
// resource subscriptions.
var ErrNoSubscriptions = errors.New("the server does not offer resource subscriptions")

// canSubscribe reports whether the server advertises resources.subscribe.
func canSubscribe(init *mcp.InitializeResult) bool {
	return init != nil && init.Capabilities.Resources != nil && init.Capabilities.Resources.Subscribe
}

// Watch subscribes to uri on server and reads it; the snapshot's Watched
// then follows its changes until Unwatch.
func (e *Engine) Watch(ctx context.Context, server, uri string) error {
	e.mu.Lock()
	t, en, err := e.connected(server)
	if err == nil && !canSubscribe(t.conn.Init()) {
		err = fmt.Errorf("%w: %s", ErrNoSubscriptions, server)
	}
	e.mu.Unlock()
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	if err := t.conn.Subscribe(ctx, uri, true); err != nil {
		return e.callError(ctx, server, "subscribing to "+uri, err)
	}
	e.mu.Lock()
	defer e.mu.Unlock()
	if en.watched == nil {
		en.watched = map[string]*watchState{}
	}
	if en.watched[uri] == nil {
		en.watched[uri] = &watchState{w: WatchedResource{URI: uri}}
	}
	e.rereadLocked(en, uri, true)
	return nil
}

// Unwatch ends the watch of uri on server (unsubscribing if connected).
func (e *Engine) Unwatch(ctx context.Context, server, uri string) error {
	e.mu.Lock()
	en := e.byName[server]
	if en == nil || e.closed {
		e.mu.Unlock()
		return fmt.Errorf("%w: %s", ErrUnknownServer, server)
	}
	delete(en.watched, uri)
	e.publishWatchedLocked(en)
	conn := en.conn
	e.mu.Unlock()
	if conn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	if err := conn.Subscribe(ctx, uri, false); err != nil {
		return e.callError(ctx, server, "unsubscribing from "+uri, err)
	}
	return nil
}

// onResourceUpdated re-reads a watched resource the server says changed.
func (e *Engine) onResourceUpdated(server, uri string) {
	e.mu.Lock()
	defer e.mu.Unlock()
	en := e.byName[server]
	if e.closed || en == nil || en.watched[uri] == nil {
		return
	}
	ws := en.watched[uri]
	ws.w.Updates++
	ws.w.ChangedAt = time.Now()
	e.rereadLocked(en, uri, true)
}

// rereadLocked reads uri again in the background, or marks it for one
// more read when a read is under way. Callers hold e.mu.
func (e *Engine) rereadLocked(en *entry, uri string, publish bool) {
	ws := en.watched[uri]
	if ws.reading {
		ws.again = true
		return
	}
	ws.reading = true
	if publish {
		e.publishWatchedLocked(en)
	}
	server := en.srv.Name
	e.wg.Go(func() {
		for {
			res, err := e.ReadResource(e.ctx, server, uri)
			e.mu.Lock()
			ws := en.watched[uri]
			if ws == nil || e.closed || e.byName[server] != en {
				e.mu.Unlock()
				return
			}
			ws.w.ReadAt, ws.w.ReadError = time.Now(), ""
			if err != nil {
				ws.w.ReadError = sanitize(err.Error())
			} else {
				ws.w.Contents = res.Contents
			}
			again := ws.again
			ws.again, ws.reading = false, again
			e.publishWatchedLocked(en)
			e.mu.Unlock()
			if !again {
				return
			}
		}
	})
}

// renewWatchesLocked subscribes a new connection to every watched resource
// and reads each again (it may have changed while disconnected). Callers
// hold e.mu.

func (e *Engine) renewWatchesLocked(en *entry, gen uint64, conn session) {
	if len(en.watched) == 0 {
		return
	}
	uris := slices.Sorted(func(yield func(string) bool) {
		for u := range en.watched {
			if !yield(u) {
				return
			}
		}
	})
	e.wg.Go(func() {
		for _, uri := range uris {
			ctx, cancel := context.WithTimeout(e.ctx, completeTimeout)
			err := conn.Subscribe(ctx, uri, true)
			cancel()
			e.mu.Lock()
			if e.closed || en.st.Gen() != gen || en.watched[uri] == nil {
				e.mu.Unlock()
				continue
			}
			if err != nil {
				en.watched[uri].w.ReadError = sanitize(fmt.Sprintf("renewing the subscription: %v", err))
				e.publishWatchedLocked(en)
			} else {
				e.rereadLocked(en, uri, false)
			}
			e.mu.Unlock()
		}
	})
}

// publishWatchedLocked copies the watched resources into the snapshot
// (sorted by URI) and publishes.
func (e *Engine) publishWatchedLocked(en *entry) {
	out := make([]WatchedResource, 0, len(en.watched))
	for _, ws := range en.watched {
		out = append(out, ws.w)
	}
	slices.SortFunc(out, func(a, b WatchedResource) int { return strings.Compare(a.URI, b.URI) })
	if len(out) == 0 {
		out = nil
	}
	en.s.Watched = out
	e.publishLocked()
}
