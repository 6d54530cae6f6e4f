package serve

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// offline is a gateway without an engine: snapshots are applied by hand.
// Its wait is not started (ready stays open until start.markReady or a
// snapshot in which every server settled).
func offline(t testing.TB) *rig {
	g := newGateway(filter{}, io.Discard)
	g.base, g.stop = context.WithCancel(context.Background())
	t.Cleanup(g.stop)
	g.srv = g.newMCPServer("test")
	return &rig{t: t, gw: g, log: &lockedBuffer{}}
}

// up is a connected server offering tools, one prompt, one resource and
// one template, each named after the server.
func up(name string, tools ...string) engine.ServerSnapshot {
	s := engine.ServerSnapshot{Name: name, State: model.StateConnected, Runnable: true}
	for _, t := range tools {
		s.Tools = append(s.Tools, engine.Tool{Name: t, Description: "does " + t, InputSchema: json.RawMessage(`{"type":"object","properties":{"q":{"type":"string"}}}`)})
	}
	s.Prompts = []engine.Prompt{{Name: "greet", Description: "greets"}}
	s.Resources = []engine.Resource{{URI: "file:///" + name, Name: name}}
	s.Templates = []engine.ResourceTemplate{{URITemplate: "file:///" + name + "/{x}", Name: name + "-x"}}
	return s
}

// applyAll applies a snapshot of servers, numbered after the last.
func applyAll(g *Gateway, servers ...engine.ServerSnapshot) {
	g.mu.Lock()
	seq := g.snap.Seq + 1
	g.mu.Unlock()
	g.apply(engine.Snapshot{Seq: seq, Servers: servers})
}

// generation is the count of changes of what is offered so far.
func (c *listCache) generation() uint64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.gen
}

// viaMCPGo is mcp-go's own reply to msg, as its stdio transport encodes it.
func viaMCPGo(t *testing.T, g *Gateway, msg string) string {
	t.Helper()
	b, err := json.Marshal(g.srv.HandleMessage(t.Context(), json.RawMessage(msg)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// viaCache is the cache's reply to msg, or "" when it leaves msg to mcp-go.
func viaCache(g *Gateway, msg string) string {
	id, res, ok := g.cachedList([]byte(msg))
	if !ok {
		return ""
	}
	var b strings.Builder
	writeReply(&b, id, res)
	return b.String()
}

func sameJSON(t *testing.T, got, want string) {
	t.Helper()
	var a, b any
	if err := json.Unmarshal([]byte(got), &a); err != nil {
		t.Fatalf("reply is not JSON: %v\n%s", err, got)
	}
	if err := json.Unmarshal([]byte(want), &b); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(a, b) {
		t.Errorf("cached reply differs from mcp-go's:\n got %s\nwant %s", got, want)
	}
}

// TestCachedListsAnswerAsMCPGo: the cache's reply to each list request is
// mcp-go's own (the same items in its order, empty lists as []), for a
// number id and a string id, and ends in one newline. While a server is
// still connecting (within the wait) it leaves the request to mcp-go.
func TestCachedListsAnswerAsMCPGo(t *testing.T) {
	r := offline(t)
	applyAll(r.gw, up("zeta", "b", "a"), up("alpha", "c"), engine.ServerSnapshot{Name: "later", Runnable: true})
	if got := viaCache(r.gw, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); got != "" {
		t.Errorf("answered from the cache while a server is still connecting (mcp-go's hook holds it until the wait ends): %s", got)
	}
	applyAll(r.gw, up("zeta", "b", "a"), up("alpha", "c"), engine.ServerSnapshot{Name: "empty", State: model.StateConnected, Runnable: true})
	for _, m := range []mcp.MCPMethod{mcp.MethodToolsList, mcp.MethodPromptsList, mcp.MethodResourcesList, mcp.MethodResourcesTemplatesList} {
		for _, id := range []string{`7`, `"req-7"`} {
			msg := fmt.Sprintf(`{"jsonrpc":"2.0","id":%s,"method":%q,"params":{}}`, id, m)
			got := viaCache(r.gw, msg)
			if !strings.HasSuffix(got, "}\n") || strings.Count(got, "\n") != 1 {
				t.Errorf("%s: reply is not one line: %q", m, got)
			}
			sameJSON(t, got, viaMCPGo(t, r.gw, msg))
		}
	}
	applyAll(r.gw) // nothing offered: empty lists, not null
	sameJSON(t, viaCache(r.gw, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`), `{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}`)
}

// TestPlainList: only a plain list request is answered from the cache;
// one with a cursor, _meta (a 2026-07-28 request, a progress token), no
// id, or another method goes to mcp-go.
func TestPlainList(t *testing.T) {
	for msg, want := range map[string]bool{
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`:                                                              true,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":null}`:                                                true,
		`{"jsonrpc":"2.0","id":"a","method":"resources/templates/list","params":{}}`:                                  true,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"eA=="}}`:                                   false,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"progressToken":1}}}`:                       false,
		`{"jsonrpc":"2.0","method":"tools/list"}`:                                                                     false,
		`{"jsonrpc":"2.0","id":null,"method":"tools/list"}`:                                                           false,
		`{"jsonrpc":"2.0","id":{},"method":"tools/list"}`:                                                             false,
		`{"jsonrpc":"1.0","id":1,"method":"tools/list"}`:                                                              false,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"x/list"}}`:                                   false,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"pad":"` + strings.Repeat("x", maxPlainList) + `"}}`: false,
		`not json /list`: false,
	} {
		if _, _, ok := plainList([]byte(msg)); ok != want {
			t.Errorf("plainList(%.80s) = %v, want %v", msg, ok, want)
		}
	}
}

// TestListCacheInvalidation: the cached reply follows every change of
// what is offered (a server joins, leaves, may no longer run, changes its
// list, a tool becomes denied) and is kept, not encoded again, through a
// snapshot that changes nothing offered (traffic).
func TestListCacheInvalidation(t *testing.T) {
	r := offline(t)
	g := r.gw
	g.start.markReady()
	list := `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`
	// The engine never changes a list it published: an unchanged server
	// comes again with the same slices (b below).
	a, b := up("a", "one"), up("b", "two")
	applyAll(g, a)
	steps := []struct {
		cause   string
		servers []engine.ServerSnapshot
		changes bool
	}{
		{"a server joins", []engine.ServerSnapshot{a, b}, true},
		{"traffic only", func() []engine.ServerSnapshot {
			b := b
			b.Traffic = []engine.Frame{{Method: "tools/call"}}
			return []engine.ServerSnapshot{a, b}
		}(), false},
		{"a server's list changes", []engine.ServerSnapshot{a, up("b", "two", "three")}, true},
		{"a tool is denied", func() []engine.ServerSnapshot {
			b := up("b", "two", "three")
			b.Tools[1].Denied = true
			return []engine.ServerSnapshot{a, b}
		}(), true},
		{"a server may no longer run", func() []engine.ServerSnapshot {
			b := up("b", "two")
			b.Runnable = false
			return []engine.ServerSnapshot{a, b}
		}(), true},
		{"a server leaves", []engine.ServerSnapshot{up("b", "two")}, true},
	}
	before := viaCache(g, list)
	for _, s := range steps {
		gen := g.lists.generation()
		prev := g.lists.results[mcp.MethodToolsList]
		applyAll(g, s.servers...)
		got := viaCache(g, list)
		sameJSON(t, got, viaMCPGo(t, g, list))
		if changed := g.lists.generation() != gen; changed != s.changes {
			t.Errorf("%s: generation changed %v, want %v", s.cause, changed, s.changes)
		}
		if !s.changes && &g.lists.results[mcp.MethodToolsList][0] != &prev[0] {
			t.Errorf("%s: the reply was encoded again", s.cause)
		}
		if s.changes && got == before {
			t.Errorf("%s: the reply did not change:\n%s", s.cause, got)
		}
		before = got
	}
}

// TestFrontsAnswerFromTheCache: over stdio and HTTP, an agent's lists are
// answered from the cache (built on the first) with mcp-go's items; an
// agent on 2026-07-28, whose results mcp-go stamps, is left to mcp-go.
func TestFrontsAnswerFromTheCache(t *testing.T) {
	for _, via := range []string{"stdio", "http", "modern"} {
		t.Run(via, func(t *testing.T) {
			r := offline(t)
			applyAll(r.gw, up("s", "b", "a"), up("t")) // two servers: names are SERVER__NAME
			var a *agent
			switch via {
			case "stdio":
				a = r.stdioAgent()
			case "http":
				a = r.httpAgent()
			default:
				a = r.modernAgent()
			}
			if names := a.toolNames(t); !slices.Equal(names, []string{"s__a", "s__b"}) {
				t.Errorf("tools/list = %v", names)
			}
			res, err := a.ListResourceTemplates(t.Context(), mcp.ListResourceTemplatesRequest{})
			if err != nil || len(res.ResourceTemplates) != 2 {
				t.Errorf("resources/templates/list = %+v, %v", res, err)
			}
			r.gw.lists.mu.Lock()
			cached := len(r.gw.lists.results)
			r.gw.lists.mu.Unlock()
			if want := map[bool]int{true: 0, false: 2}[via == "modern"]; cached != want {
				t.Errorf("%d results cached, want %d", cached, want)
			}
		})
	}
}

// tellingSession is an agent's session that, each time the gateway sends
// it a notification, records what the cache would answer a tools/list at
// that moment: an agent may list as soon as it is told.
type tellingSession struct {
	g    *Gateway
	ch   chan mcp.JSONRPCNotification
	seen []string
}

func (s *tellingSession) SessionID() string { return "telling" }
func (s *tellingSession) Initialize()       {}
func (s *tellingSession) Initialized() bool { return true }
func (s *tellingSession) NotificationChannel() chan<- mcp.JSONRPCNotification {
	s.seen = append(s.seen, viaCache(s.g, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
	return s.ch
}

// TestToldAgentsNeverGetTheOldList: when a server's tools change, an
// agent told tools/list_changed that lists at once is not answered from
// the results encoded before (the request goes to mcp-go, which holds
// the new list, until every list is set), and afterwards the cache
// answers with the new list.
func TestToldAgentsNeverGetTheOldList(t *testing.T) {
	r := offline(t)
	g := r.gw
	a, b := up("a", "one"), up("b")
	applyAll(g, a, b)
	if got := viaCache(g, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); !strings.Contains(got, "a__one") {
		t.Fatalf("first list = %s", got)
	}
	s := &tellingSession{g: g, ch: make(chan mcp.JSONRPCNotification, 8)}
	if err := g.srv.RegisterSession(t.Context(), s); err != nil {
		t.Fatal(err)
	}
	a.Tools = append(slices.Clip(a.Tools), engine.Tool{Name: "two"})
	applyAll(g, a, b)
	if len(s.seen) == 0 {
		t.Fatal("the agent was not told")
	}
	for _, got := range s.seen {
		if got != "" {
			t.Errorf("an agent told of the change would get from the cache: %s", got)
		}
	}
	if got := viaCache(g, `{"jsonrpc":"2.0","id":1,"method":"tools/list"}`); !strings.Contains(got, "a__two") {
		t.Errorf("after the change the cache answers %s", got)
	}
}

// post sends body to the gateway's /mcp at url as an agent would, with
// the bearer token and, when session is set, that session's headers on
// protocol version.
func post(t testing.TB, url, token, session, version, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	if session != "" {
		req.Header.Set("Mcp-Session-Id", session)
		req.Header.Set("Mcp-Protocol-Version", version)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp, b
}

// initializeBody is a 2025-11-25 agent's initialize request.
const initializeBody = `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// TestCachedListNeedsTheTokenAndASession: the cache answers over HTTP
// only what passed the token check, on a session the gateway registered,
// under a protocol before 2026-07-28; anything else is mcp-go's to answer
// (or refuse) and encodes nothing.
func TestCachedListNeedsTheTokenAndASession(t *testing.T) {
	r := offline(t)
	applyAll(r.gw, up("s", "a"), up("t"))
	url := r.serveHTTP(HTTPOptions{Token: testToken}) + "/mcp"
	resp, _ := post(t, url, testToken, "", "", initializeBody)
	session := resp.Header.Get("Mcp-Session-Id")
	if session == "" {
		t.Fatalf("initialize: %s, no session", resp.Status)
	}
	const list = `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	cached := func() int {
		r.gw.lists.mu.Lock()
		defer r.gw.lists.mu.Unlock()
		return len(r.gw.lists.results)
	}
	for _, c := range []struct {
		name, token, session, version string
		want                          int
	}{
		{"no token", "", session, "2025-11-25", http.StatusUnauthorized},
		{"wrong token", "wrong-token-0123456789", session, "2025-11-25", http.StatusUnauthorized},
		{"no session", testToken, "", "", http.StatusNotFound},
		{"a session it never made", testToken, "mcp-session-00000000-0000-0000-0000-000000000000", "2025-11-25", http.StatusNotFound},
	} {
		if resp, body := post(t, url, c.token, c.session, c.version, list); resp.StatusCode != c.want || cached() != 0 {
			t.Errorf("%s: %s %.100s with %d results cached, want %d and none", c.name, resp.Status, body, cached(), c.want)
		}
	}
	if resp, body := post(t, url, testToken, session, "2025-11-25", list); resp.StatusCode != http.StatusOK || !strings.Contains(string(body), `"s__a"`) || cached() != 1 {
		t.Errorf("the session's list: %s %.200s with %d results cached, want s__a from the cache", resp.Status, body, cached())
	}
}
