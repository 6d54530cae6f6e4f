// Package promptguard keeps a prompt that answers a question from taking
// a key typed before it was on screen.
package promptguard

import (
	"time"

	tea "github.com/charmbracelet/bubbletea"
)

// Guard keeps a prompt that answers a question (a server's
// elicitation or sampling request, an approval, a sign-in: a modal whose
// Answers is not nil) from taking a key the person typed before it was on
// screen. Such a prompt can open between two keys of a burst (a server asks
// while the person is still typing into the form under it), and Bubble Tea
// hands keys over in order, so the keys already typed would land on a prompt
// nobody saw: an Enter typed for the form would answer the server.
//
// The guard is per prompt on top of the stack, and it starts again each
// time a question comes on top, whether a server raised it, a key opened it,
// or closing another prompt revealed it (the second Enter of a double press
// must not answer the prompt that was under the first). The prompt is armed
// once a View drew it and a whole ArmWindow then went by with no key read:
// the renderer puts a frame on the terminal within one of its frames
// (83 ms at 12 fps), a person reacts to something new on screen after about
// 200 ms, and a burst under way when the prompt appeared (keys still
// queued, a key held down) keeps it unarmed until the burst ends. Until then
// a key is not given to it, nor to anything under it (what was on screen
// when it was typed may be gone); the status line says so, and the footer
// shows the prompt's keys only once they work, which is also what a test
// driving a real terminal waits for.
//
// Counting keys instead of reading a clock keeps the rule deterministic in
// tests: ArmMsg is the window's end, and it arms only if no key came since
// the window began; a test delivers it itself.
type Guard struct {
	q     any  // the question of the prompt on top; nil when none is on top
	gen   int  // bumped each time the guard starts again
	drawn bool // a View drew the prompt on top since the guard started
	armed bool
	keys  int // every key read so far
	held  int // keys not given to the prompt on top since the guard started
}

// ArmWindow is how long a prompt must have been on screen, with no key
// read, before it takes keys (see Guard).
const ArmWindow = 250 * time.Millisecond

// ArmMsg ends a guard window that began when keys keys had been read.
type ArmMsg struct{ gen, keys int }

// restart starts the guard again for q (nil: nothing to guard).
func (g *Guard) restart(q any) tea.Cmd {
	g.q, g.gen, g.drawn, g.armed, g.held = q, g.gen+1, false, q == nil, 0
	if q == nil {
		return nil
	}
	return g.window()
}

// window is the Cmd ending a window that begins now.
func (g *Guard) window() tea.Cmd {
	end := g.Pending()
	return tea.Tick(ArmWindow, func(time.Time) tea.Msg { return end })
}

// Pending is the message ending a window that begins now: it arms the
// prompt if no key is read before it arrives.
func (g *Guard) Pending() ArmMsg { return ArmMsg{gen: g.gen, keys: g.keys} }

// Arm ends a window: the prompt is armed if it was drawn and no key came
// during the window, else a new window begins.
func (g *Guard) Arm(msg ArmMsg) tea.Cmd {
	if msg.gen != g.gen || g.armed {
		return nil
	}
	if !g.drawn || msg.keys != g.keys {
		return g.window()
	}
	g.armed = true
	return nil
}

// Watch starts the guard again when the question on top, q (nil when no
// prompt answering one is on top), is not the one it guards; the root
// calls it after every message.
func (g *Guard) Watch(q any) tea.Cmd {
	if q == g.q {
		return nil
	}
	return g.restart(q)
}

// Rearm starts the guard again for the prompt on top even though its
// question is the same: what it asks changed (the approval prompt was
// given more servers while on screen).
func (g *Guard) Rearm() { g.q = rearmed{} }

// rearmed is a question no modal answers: Watch then sees a change.
type rearmed struct{}

// Drawn notes that a View drew the prompt on top.
func (g *Guard) Drawn() { g.drawn = true }

// KeyRead counts a key read, whoever it goes to.
func (g *Guard) KeyRead() { g.keys++ }

// Armed reports whether the prompt on top takes keys.
func (g *Guard) Armed() bool { return g.armed }

// Hold reports whether a key must not be given to the prompt on top, and
// how many were held back since the guard started.
func (g *Guard) Hold() (held int, ok bool) {
	if g.armed {
		return 0, false
	}
	g.held++
	return g.held, true
}
