package ui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
)

// notesIndex is where fixture() puts the notes server.
const notesIndex = 5

// openNotesTab opens the notes server's detail view on tab (a digit).
func openNotesTab(h *harness, tab string) {
	h.t.Helper()
	h.keys("esc") // the approval prompt
	h.selectServer("notes")
	h.keys("enter", tab)
}

// TestNothingSelectedDisablesItemKeys: with a filter that matches nothing,
// every key that acts on a selected item says "nothing selected" and
// acts on nothing (a hidden tool is not denied nor called, a hidden
// resource not read nor watched, a hidden prompt not got, a hidden frame
// not opened); the footer no longer offers those keys.
func TestNothingSelectedDisablesItemKeys(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[notesIndex].Subscriptions = true
		s.Servers[notesIndex].Traffic = trafficFixture()
		h := newHarness(t, newFakeEngine(s), 100, 30)
		openNotesTab(h, "2")
		h.keys("/", "qqqq", "enter")
		h.wantView("nothing matches the filter")
		golden(t, "detail_tools_nothing_selected", h.view())
		if v := h.view(); strings.Contains(v, "c call tool") || strings.Contains(v, "D deny") {
			t.Fatalf("the footer offers keys on a hidden tool:\n%s", v)
		}
		press := func(k, status string) {
			t.Helper()
			h.keys(k)
			h.wantView(status)
			if len(h.m.modals) != 0 {
				t.Fatalf("%s opened a prompt on a hidden item:\n%s", k, h.view())
			}
		}
		press("D", "deny tool: nothing selected (nothing matches the filter)")
		press("c", "call tool: nothing selected (nothing matches the filter)")
		press("enter", "call tool: nothing selected (nothing matches the filter)")

		h.keys("3", "/", "qqqq", "enter")
		press("R", "read resource: nothing selected (nothing matches the filter)")
		press("w", "watch resource: nothing selected (nothing matches the filter)")
		h.keys("4", "/", "qqqq", "enter")
		press("p", "get prompt: nothing selected (nothing matches the filter)")
		h.keys("9", "/", "qqqq", "enter")
		press("enter", "open: nothing selected (nothing matches the filter)")
		h.keys("esc", "esc", "c", "/", "qqqq", "enter", "enter") // the tool picker
		h.wantView("Call a tool of notes: nothing selected (nothing matches the filter)")
		if len(h.m.modals) != 1 {
			t.Fatalf("enter in an empty picker opened something:\n%s", h.view())
		}
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("keys acted on hidden items: %v", got)
		}
		h.keys("esc", "esc", "enter", "2", "/", "list", "enter") // a filter that matches: the keys act on what is shown
		h.keys("D")
		if got := h.eng.Actions(); len(got) != 1 || got[0] != "deny notes list_notes true" {
			t.Fatalf("D on the filtered tool: engine got %v", got)
		}
	})
}

// rankingTools are tools where a description match comes before a name
// match, as in server-everything: "/long" must put the long-running
// tool first.
func rankingTools() []engine.Tool {
	obj := json.RawMessage(`{"type":"object"}`)
	return []engine.Tool{
		{Name: "echo", ExposedName: "mcp__notes__echo", Description: "Echoes back the input", InputSchema: obj},
		{Name: "get-structured-content", ExposedName: "mcp__notes__get-structured-content", Description: "Returns structured content along with text", InputSchema: obj},
		{Name: "long-running-operation", ExposedName: "mcp__notes__long-running-operation", Description: "Runs a while, reporting progress", InputSchema: obj},
	}
}

// TestFilterRanksNamesFirst: matches in a name come before matches only
// in a description, in the tools tab and in the tool picker alike, and the
// selection (what c and enter act on) is the first match.
func TestFilterRanksNamesFirst(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[notesIndex].Tools = rankingTools()
		h := newHarness(t, newFakeEngine(s), 100, 30)
		openNotesTab(h, "2")
		h.keys("/", "long")
		v := h.view()
		if l, g := strings.Index(v, "long-running-operation"), strings.Index(v, "get-structured-content"); l < 0 || g < 0 || l > g {
			t.Fatalf("a description match is listed before the name match:\n%s", v)
		}
		h.wantView("› long-running-operation")
		golden(t, "detail_tools_ranked", v)
		h.keys("enter", "c")
		h.wantView("Call notes › long-running-operation")

		h.keys("esc", "esc", "esc") // the form, the filter, the detail view
		h.keys("c", "/", "long", "enter", "enter")
		h.wantView("Call notes › long-running-operation")
	})
}

// TestFilterAgainEditsTheKeptQuery: "/" on a kept filter selects it:
// typing replaces it ("/elicit" then "/sampling" is "sampling", not
// "elicitsampling"), backspace and the cursor keys edit it; in the tools
// tab, the tool picker and the server list alike.
func TestFilterAgainEditsTheKeptQuery(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		openNotesTab(h, "2")
		h.keys("/", "add", "enter")
		h.wantView("/add", "add_note")
		h.keys("/", "list", "enter")
		h.wantView("/list", "list_notes")
		if v := h.view(); strings.Contains(v, "addlist") || strings.Contains(v, "nothing matches") {
			t.Fatalf("the second query was appended to the first:\n%s", v)
		}
		h.keys("/", "backspace", "backspace", "enter") // edits: "li"
		h.wantView("/li", "list_notes")
		h.keys("/", "left", "left", "st", "enter") // the cursor moved: typing inserts, "stli" matches nothing
		h.wantView("/stli", "nothing matches the filter")

		h.keys("esc", "esc", "esc") // clear, leave the detail view
		h.keys("c", "/", "add", "enter", "/", "search", "enter")
		h.wantView("/search", "› search")

		h.keys("esc", "esc", "esc") // clear the picker's filter, close it
		h.keys("/", "note", "enter", "/", "off", "enter")
		h.wantView("/off", "› ○ off")
		if strings.Contains(h.view(), "notes") {
			t.Fatalf("the list filter was appended to:\n%s", h.view())
		}
	})
}

// TestQuitFromTheApprovalPrompt: q in the start-up approval prompt quits,
// deciding nothing (the servers stay awaiting approval, asked again at the
// next start), and the prompt and its help say so.
func TestQuitFromTheApprovalPrompt(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.wantView("Project server changed since you approved it", "q quit, decide later")
		h.keys("?")
		h.wantView("This prompt", "q       quit, decide later")
		if strings.Contains(h.view(), "not from this prompt") {
			t.Fatalf("the help says q does not quit from the approval prompt:\n%s", h.view())
		}
		h.keys("esc", "q")
		if !h.quit {
			t.Fatalf("q in the approval prompt did not quit:\n%s", h.view())
		}
		if got := h.eng.Actions(); len(got) != 0 {
			t.Fatalf("quitting decided something: %v", got)
		}
	})
}

// TestQuitHeldByAPromptSaysWhy: a prompt a server waits on keeps q for
// its answer: q says why it does not quit, the prompt stays, and the help
// over it does not claim that q quits.
func TestQuitHeldByAPromptSaysWhy(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		h := newHarness(t, newFakeEngine(fixture()), 100, 30)
		h.keys("esc")
		url := elicitAsync(h, t.Context(), engine.ElicitRequest{Server: "remote-api", Mode: "url", Message: "Sign in", URL: "https://auth.example.com/a"})
		h.keys("q")
		if h.quit {
			t.Fatal("q quit from a prompt the server waits on")
		}
		h.wantView("quit: not from this prompt (close it first, or ctrl+c quits from anywhere)", "remote-api needs you to visit a page")
		h.keys("?")
		h.wantView("This prompt", "quit (not from this prompt)", "ctrl+c quit from anywhere")
		h.keys("esc", "ctrl+c")
		if !h.quit {
			t.Fatal("ctrl+c did not quit")
		}
		if r := <-url; r.Action != "cancel" {
			t.Fatalf("the request got %+v on quit", r)
		}
	})
}

// TestFooterShowsTheTabsKeys: each detail tab's footer offers that tab's
// keys first (D in Tools, w in Resources, L in Logs) and not another
// tab's (no "c call tool" in Resources), at 80 columns.
func TestFooterShowsTheTabsKeys(t *testing.T) {
	inBubble(t, func(t *testing.T) {
		s := fixture()
		s.Servers[notesIndex].Subscriptions = true
		h := newHarness(t, newFakeEngine(s), 80, 24)
		openNotesTab(h, "2")
		footer := func() string {
			v := h.view()
			return v[strings.LastIndex(v, "\n")+1:]
		}
		if f := footer(); !strings.HasPrefix(f, "c call tool • D deny/allow tool") {
			t.Errorf("the Tools footer: %q", f)
		}
		h.keys("3")
		golden(t, "detail_resources", h.view())
		if f := footer(); !strings.HasPrefix(f, "R read resource • w watch resource") || strings.Contains(f, "c call tool") {
			t.Errorf("the Resources footer: %q", f)
		}
		h.keys("4")
		if f := footer(); !strings.HasPrefix(f, "p get prompt") || strings.Contains(f, "c call tool") {
			t.Errorf("the Prompts footer: %q", f)
		}
		h.keys("8")
		if f := footer(); !strings.HasPrefix(f, "L log level") {
			t.Errorf("the Logs footer: %q", f)
		}
		h.keys("1")
		if f := footer(); strings.Contains(f, "call tool") || strings.Contains(f, "deny") || strings.Contains(f, "log level") {
			t.Errorf("the Overview footer offers another tab's keys: %q", f)
		}
		h.keys("esc")
		if f := footer(); !strings.Contains(f, "c call tool") || strings.Contains(f, "deny") || strings.Contains(f, "watch") {
			t.Errorf("the list footer: %q", f)
		}
	})
}
