package serve

import (
	"io"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// TestApplyKeepsTheExposureWhenNothingOfferedChanged: a snapshot that
// changes only what the gateway does not offer (traffic, log messages)
// keeps the exposure as it was, without building it again; a new list, a
// server that may no longer run, or a new server rebuilds it.
func TestApplyKeepsTheExposureWhenNothingOfferedChanged(t *testing.T) {
	g := newGateway(filter{prefix: PrefixAlways}, io.Discard, fallbacks{})
	g.srv = g.newMCPServer("test")
	tools := []engine.Tool{{Name: "echo", InputSchema: []byte(`{"type":"object"}`)}}
	srv := engine.ServerSnapshot{Name: "a", State: model.StateConnected, Runnable: true, Tools: tools}
	g.syncer.apply(engine.Snapshot{Seq: 1, Servers: []engine.ServerSnapshot{srv}})
	built := g.lists.exposed().tools
	if len(built) != 1 || built[0].Name != "a__echo" {
		t.Fatalf("offered %v", built)
	}

	srv.Traffic, srv.Logs = []engine.Frame{{Method: "tools/call"}}, []engine.LogEntry{{Level: "info"}}
	g.syncer.apply(engine.Snapshot{Seq: 2, Servers: []engine.ServerSnapshot{srv}})
	if &g.lists.exposed().tools[0] != &built[0] {
		t.Error("a snapshot with only new traffic and logs built the exposure again")
	}

	srv.Tools = append([]engine.Tool{{Name: "add", InputSchema: []byte(`{"type":"object"}`)}}, tools...)
	g.syncer.apply(engine.Snapshot{Seq: 3, Servers: []engine.ServerSnapshot{srv}})
	if len(g.lists.exposed().tools) != 2 || g.lists.exposed().tools[0].Name != "a__add" {
		t.Errorf("a new tools list is not offered: %v", g.lists.exposed().tools)
	}

	srv.Runnable, srv.Blockers = false, []model.Reason{{Kind: model.ReasonDisabledByYou}}
	g.syncer.apply(engine.Snapshot{Seq: 4, Servers: []engine.ServerSnapshot{srv}})
	if len(g.lists.exposed().tools) != 0 {
		t.Errorf("a disabled server's tools stay offered: %v", g.lists.exposed().tools)
	}

	srv.Runnable, srv.Blockers = true, nil
	other := engine.ServerSnapshot{Name: "b", State: model.StateConnected, Runnable: true, Tools: tools}
	g.syncer.apply(engine.Snapshot{Seq: 5, Servers: []engine.ServerSnapshot{srv, other}})
	if len(g.lists.exposed().tools) != 3 {
		t.Errorf("a new server's tools are not offered: %v", g.lists.exposed().tools)
	}
}
