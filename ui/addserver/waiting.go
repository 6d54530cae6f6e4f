package addserver

import (
	"fmt"
	"time"

	"github.com/charmbracelet/bubbles/spinner"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/styles"
)

// waiting is a registry modal's request under way: its id (an answer to
// another request is dropped), what it waits for, when it began and a
// spinner, so that a registry slow to answer is seen to be waited for,
// and for how long. The zero value waits for nothing.
type waiting struct {
	id    int
	what  string
	since time.Time
	spin  spinner.Model
}

// start waits for request id; the Cmd turns the spinner.
func (w *waiting) start(id int, what string) tea.Cmd {
	*w = waiting{id: id, what: what, since: time.Now(), spin: spinner.New(spinner.WithSpinner(spinner.MiniDot))}
	return w.spin.Tick
}

// stop ends the wait: the spinner's next tick is its last.
func (w *waiting) stop() { *w = waiting{} }

// busy reports whether a request is under way.
func (w *waiting) busy() bool { return w.id != 0 }

// answeredBy reports whether id is the request under way.
func (w *waiting) answeredBy(id int) bool { return w.id != 0 && w.id == id }

// tick turns the spinner while a request is under way.
func (w *waiting) tick(msg spinner.TickMsg) tea.Cmd {
	if !w.busy() {
		return nil
	}
	var cmd tea.Cmd
	w.spin, cmd = w.spin.Update(msg)
	return cmd
}

// view is "⠋ searching the MCP Registry… 3s".
func (w *waiting) view(st *styles.Styles) string {
	secs := int(time.Since(w.since) / time.Second)
	return w.spin.View() + " " + st.Muted.Render(fmt.Sprintf("%s %ds", textsafe.SanitizeLine(w.what), secs))
}
