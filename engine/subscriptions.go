package engine

import (
	"context"
	"errors"
	"fmt"
	"maps"
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
	// Sent is the latest read as the server sent it (ResourceResult.Sent),
	// for output that must be MCP (the CLI's read --watch --json).
	Sent *mcp.ReadResourceResult `json:"-"`
}

// subParts keeps the resources the person watches: it subscribes,
// re-reads a resource on each update, and renews the subscriptions on
// each new connection.
type subParts struct{ e *Engine }

// watchState is what subscriptions keep per server: the watched resources
// by URI, kept across reconnects, and the list the snapshot shows.
type watchState struct {
	watched map[string]*watched
	shown   []WatchedResource // by URI
}

// watched is one watched resource: its snapshot, and whether a re-read
// runs (updates arriving meanwhile coalesce into one more).
type watched struct {
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
	return e.subs.watch(ctx, server, uri)
}

// Unwatch ends the watch of uri on server (unsubscribing if connected).
func (e *Engine) Unwatch(ctx context.Context, server, uri string) error {
	return e.subs.unwatch(ctx, server, uri)
}

// watch runs Watch.
func (p *subParts) watch(ctx context.Context, server, uri string) error {
	e := p.e
	t, err := e.calls.target(server)
	if err == nil && !canSubscribe(t.conn.Init()) {
		err = fmt.Errorf("%w: %s", ErrNoSubscriptions, server)
	}
	if err != nil {
		return err
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	if err := t.conn.Subscribe(ctx, uri, true); err != nil {
		return e.calls.callError(ctx, server, "subscribing to "+uri, err)
	}
	e.ifEntry(server, func(en *entry) {
		w := &en.watch
		if w.watched == nil {
			w.watched = map[string]*watched{}
		}
		if w.watched[uri] == nil {
			w.watched[uri] = &watched{w: WatchedResource{URI: uri}}
		}
		p.rereadLocked(en, uri, true)
	})
	return nil
}

// unwatch runs Unwatch.
func (p *subParts) unwatch(ctx context.Context, server, uri string) error {
	e := p.e
	var conn session
	known := false
	e.locked(func() {
		en := e.byName[server]
		if known = en != nil && !e.closed; !known {
			return
		}
		delete(en.watch.watched, uri)
		p.publishLocked(en)
		conn = en.conn.conn
	})
	if !known {
		return fmt.Errorf("%w: %s", ErrUnknownServer, server)
	}
	if conn == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, completeTimeout)
	defer cancel()
	if err := conn.Subscribe(ctx, uri, false); err != nil {
		return e.calls.callError(ctx, server, "unsubscribing from "+uri, err)
	}
	return nil
}

// onUpdated re-reads a watched resource the server says changed.
func (p *subParts) onUpdated(server, uri string) {
	p.e.ifEntry(server, func(en *entry) {
		ws := en.watch.watched[uri]
		if ws == nil {
			return
		}
		ws.w.Updates++
		ws.w.ChangedAt = time.Now()
		p.rereadLocked(en, uri, true)
	})
}

// rereadLocked reads uri again in the background, or marks it for one
// more read when a read is under way. Callers hold e.mu.
func (p *subParts) rereadLocked(en *entry, uri string, publish bool) {
	ws := en.watch.watched[uri]
	if ws.reading {
		ws.again = true
		return
	}
	ws.reading = true
	if publish {
		p.publishLocked(en)
	}
	e := p.e
	server := en.srv.Name
	e.wg.Go(func() {
		for again := true; again; {
			res, err := e.ReadResource(e.ctx, server, uri)
			again = false
			e.locked(func() {
				ws := en.watch.watched[uri]
				if ws == nil || e.closed || e.byName[server] != en {
					return
				}
				ws.w.ReadAt, ws.w.ReadError = time.Now(), ""
				if err != nil {
					ws.w.ReadError = sanitize(err.Error())
				} else {
					ws.w.Contents, ws.w.Sent = res.Contents, res.Sent
				}
				again = ws.again
				ws.again, ws.reading = false, again
				p.publishLocked(en)
			})
		}
	})
}

// renewLocked subscribes a new connection to every watched resource and
// reads each again (it may have changed while disconnected). Callers hold
// e.mu.
func (p *subParts) renewLocked(en *entry, gen uint64, conn session) {
	if len(en.watch.watched) == 0 {
		return
	}
	uris := slices.Sorted(maps.Keys(en.watch.watched))
	e := p.e
	e.wg.Go(func() {
		for _, uri := range uris {
			ctx, cancel := context.WithTimeout(e.ctx, completeTimeout)
			err := conn.Subscribe(ctx, uri, true)
			cancel()
			e.locked(func() {
				ws := en.watch.watched[uri]
				if e.closed || en.st.Gen() != gen || ws == nil {
					return
				}
				if err != nil {
					ws.w.ReadError = sanitize(fmt.Sprintf("renewing the subscription: %v", err))
					p.publishLocked(en)
				} else {
					p.rereadLocked(en, uri, false)
				}
			})
		}
	})
}

// publishLocked copies the watched resources into the snapshot (sorted by
// URI) and publishes.
func (p *subParts) publishLocked(en *entry) {
	out := make([]WatchedResource, 0, len(en.watch.watched))
	for _, ws := range en.watch.watched {
		out = append(out, ws.w)
	}
	slices.SortFunc(out, func(a, b WatchedResource) int { return strings.Compare(a.URI, b.URI) })
	if len(out) == 0 {
		out = nil
	}
	en.watch.shown = out
	p.e.publishLocked()
}
