package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/dustin/go-humanize"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// followTraffic keeps the traffic tab's cursor on the newest frame while
// it follows (the cursor was on the last frame when frames arrived).
func (d *detailView) followTraffic() {
	if d.followFrames {
		d.cursor[tabTraffic] = d.count(tabTraffic) - 1
	}
}

// trafficHeadLines is how many lines the traffic tab draws above its
// frames: the summary, and the filter when it is shown.
func (d *detailView) trafficHeadLines() int {
	if d.filter.Shown() && d.tab == tabTraffic {
		return 2
	}
	return 1
}

// viewTraffic draws the traffic tab: a summary line (how many frames,
// and how many of them the filter shows), the filter, then one line per
// frame from the scroll offset, the cursor's marked.
func (d *detailView) viewTraffic(b *strings.Builder, h int) {
	s := &d.srv
	head := "no traffic yet: frames appear here as mcpdeck and the server talk"
	if n := len(s.Traffic); n > 0 {
		head = fmt.Sprintf("%d frames", n)
		if d.shown != nil { // filtered: say how many are on show
			head = fmt.Sprintf("%d of %d frames", len(d.shown), n)
		}
		if s.TrafficDropped > 0 {
			head += fmt.Sprintf(" (%d older let go)", s.TrafficDropped)
		}
		head += " · enter shows one · / filters by method"
	}
	b.WriteByte('\n')
	b.WriteString(d.st.Muted.Render(head))
	if d.filter.Shown() {
		b.WriteByte('\n')
		b.WriteString(d.filter.View())
	}
	n := d.count(tabTraffic)
	if n == 0 && d.shown != nil {
		b.WriteByte('\n')
		b.WriteString(d.st.Muted.Render("no frame's method matches the filter"))
		return
	}
	per := max(h-d.trafficHeadLines(), 1)
	off := d.offset[tabTraffic]
	for i := off; i < min(off+per, n); i++ {
		f := &s.Traffic[d.index(tabTraffic, i)]
		line := frameLine(f)
		prefix := "  "
		switch {
		case i == d.cursor[tabTraffic]:
			prefix, line = "› ", d.st.Selected.Render(line)
		case f.Kind == engine.FrameError:
			line = d.st.Bad.Render(line)
		case f.Kind == engine.FrameNotification:
			line = d.st.Muted.Render(line)
		}
		b.WriteByte('\n')
		b.WriteString(prefix + line)
	}
}

// frameLine is one frame in a row: time, → sent or ← received, method,
// id, kind when not a plain request or response, duration, size.
func frameLine(f *engine.Frame) string {
	arrow := "→"
	if f.Dir == engine.FrameReceived {
		arrow = "←"
	}
	id := ""
	if f.ID != "" {
		id = "#" + f.ID
	}
	kind := ""
	switch f.Kind {
	case engine.FrameNotification:
		kind = "notification"
	case engine.FrameError:
		kind = "✗ error"
	case engine.FrameRequest, engine.FrameResponse:
	}
	dur := ""
	if f.Kind == engine.FrameResponse || f.Kind == engine.FrameError {
		dur = fmtDuration(f.Duration)
	}
	size := humanize.IBytes(uint64(max(f.Size, 0)))
	if f.Cut {
		size += " cut"
	}
	return fmt.Sprintf("%s %s %-30s %-8s %-12s %8s %10s", f.At.Format("15:04:05.000"), arrow,
		textsafe.SanitizeLine(textsafe.Clip(orDefault(f.Method, "?"), 30)), textsafe.SanitizeLine(textsafe.Clip(id, 8)), kind, dur, size)
}

// fmtDuration is a response's time in the unit that reads best.
func fmtDuration(d time.Duration) string {
	switch {
	case d < time.Millisecond:
		return fmt.Sprintf("%d µs", d.Microseconds())
	case d < time.Second:
		return fmt.Sprintf("%d ms", d.Milliseconds())
	case d < time.Minute:
		return fmt.Sprintf("%.1f s", d.Seconds())
	}
	return d.Round(time.Second).String()
}

// frameModal shows one frame whole: its line, then its body pretty-printed
// (as encoded JSON, so control and bidi characters stay escaped), or as
// text when it was cut and is no longer valid JSON.
func frameModal(e *env, f engine.Frame) *resultModal {
	var lines []string
	if f.Cut {
		lines = append(lines, fmt.Sprintf("(the first %s of %s: longer bodies are cut)", humanize.IBytes(uint64(len(f.Body))), humanize.IBytes(uint64(max(f.Size, 0)))), "")
	}
	if f.Masked > 0 {
		lines = append(lines, fmt.Sprintf("(%d secret value(s) shown as %s)", f.Masked, textsafe.Masked), "")
	}
	var buf bytes.Buffer
	body := f.Body
	if json.Indent(&buf, []byte(body), "", "  ") == nil {
		body = string(textsafe.EscapeJSON(buf.Bytes()))
	}
	lines = append(lines, strings.Split(body, "\n")...)
	title := strings.Join(strings.Fields(frameLine(&f)[len("15:04:05.000 "):]), " ")
	return &resultModal{env: e, title: title, lines: lines, tag: string(f.Dir) + " " + string(f.Kind)}
}
