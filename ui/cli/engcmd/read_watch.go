package engcmd

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/cli/clicore"
	"github.com/mcpdeck/mcpdeck/ui/cli/cliout"
	"github.com/mcpdeck/mcpdeck/ui/cli/clisession"
)

// watchResource is `read --watch`: subscribe to uri, then print its content
// each time a new read of it arrives (the first read, then one per update
// the server announces), until Ctrl-C. With --json each read is one JSON
// line, the result as the server sent it (as read --json prints it);
// otherwise a line on stderr says when it changed.
func watchResource(ctx context.Context, f *clisession.EngineFlags, s *clisession.Session, server, uri string) error {
	g := f.Globals
	if err := s.Eng.Watch(ctx, server, uri); err != nil {
		return engCallErr(f, fmt.Sprintf("watch %s on %s", uri, server), err)
	}
	var shown time.Time
	snap := s.Eng.Snapshot()
	for {
		if w, ok := watched(snap, server, uri); ok && w.ReadAt.After(shown) {
			shown = w.ReadAt
			if err := printWatched(g, w); err != nil {
				return err
			}
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case next, open := <-s.Updates:
			if !open {
				return engine.ErrClosed
			}
			snap = next
		}
	}
}

// watched finds uri among server's watched resources in snap.
func watched(snap engine.Snapshot, server, uri string) (engine.WatchedResource, bool) {
	for _, sv := range snap.Servers {
		if sv.Name != server {
			continue
		}
		for _, w := range sv.Watched {
			if w.URI == uri {
				return w, true
			}
		}
	}
	return engine.WatchedResource{}, false
}

// printWatched prints one read of a watched resource.
func printWatched(g *clicore.Globals, w engine.WatchedResource) error {
	if g.JSON {
		if w.ReadError != "" {
			fmt.Fprintln(g.Stderr, "mcpdeck: "+textsafe.SanitizeLine(w.ReadError))
			return nil
		}
		js, err := cliout.MCPResult(engine.ResourceResult{Contents: w.Contents, Sent: w.Sent})
		if err != nil {
			return err
		}
		return cliout.WriteJSONLine(g.Stdout, js)
	}
	when := "read"
	if w.Updates > 0 {
		when = fmt.Sprintf("changed (update %d)", w.Updates)
	}
	fmt.Fprintln(g.Stderr, textsafe.SanitizeLine(fmt.Sprintf("mcpdeck: %s %s at %s", w.URI, when, w.ReadAt.Format(time.TimeOnly))))
	if w.ReadError != "" {
		fmt.Fprintln(g.Stderr, "mcpdeck: "+textsafe.SanitizeLine(w.ReadError))
		return nil
	}
	return cliout.PrintContents(g.Stdout, w.Contents)
}
