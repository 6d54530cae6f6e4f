package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// logLevelCycle is the order L steps through on the Logs tab.
var logLevelCycle = []string{"debug", "info", "notice", "warning", "error", "critical", "alert", "emergency"}

// nextLogLevel is the level after l on the Logs tab (wrapping round).
func nextLogLevel(l string) string {
	for i, v := range logLevelCycle {
		if v == l {
			return logLevelCycle[(i+1)%len(logLevelCycle)]
		}
	}
	return "info"
}

// logLines renders the server's log messages at or above the tab's level,
// newest last: "time level logger: data", JSON data pretty-printed.
func (d *detailView) logLines() []string {
	level := d.logLevel
	if level == "" {
		level = "debug"
	}
	out := []string{d.st.Muted.Render(fmt.Sprintf("showing %s and above · L changes the level (the server is asked for it too)", level))}
	min := engine.LogLevelRank(level)
	shown := 0
	for _, l := range d.srv.Logs {
		if engine.LogLevelRank(l.Level) < min {
			continue
		}
		shown++
		head := l.At.Format(time.TimeOnly) + " " + l.Level
		if l.Logger != "" {
			head += " " + textsafe.SanitizeLine(l.Logger) + ":"
		}
		style := d.st.Muted
		switch r := engine.LogLevelRank(l.Level); {
		case r >= engine.LogLevelRank("error"):
			style = d.st.Bad
		case r >= engine.LogLevelRank("warning"):
			style = d.st.Warn
		}
		data := logData(l.Data)
		first, rest, _ := strings.Cut(data, "\n")
		out = append(out, style.Render(head)+" "+first)
		if rest != "" {
			out = append(out, strings.Split(rest, "\n")...)
		}
	}
	if shown == 0 {
		out = append(out, d.st.Muted.Render("no log messages at this level"))
	}
	return out
}

// logData is a message's data for the screen: JSON indented, cleaned.
func logData(data string) string {
	var buf bytes.Buffer
	if strings.HasPrefix(data, "{") || strings.HasPrefix(data, "[") {
		if json.Indent(&buf, []byte(data), "", "  ") == nil {
			data = string(textsafe.EscapeJSON(buf.Bytes()))
		}
	}
	return tuikit.Clean(data)
}

// cycleLogLevel steps the Logs tab's level and asks the server for it too.
func cycleLogLevel(m *Model, _ press) tea.Cmd {
	d := m.detail
	d.logLevel = nextLogLevel(orDefault(d.logLevel, "debug"))
	d.clamp()
	eng, ctx, server, level := m.env.eng, m.env.Ctx, d.srv.Name, d.logLevel
	verb := "set log level " + level
	m.status = verb + " " + server + "…"
	return func() tea.Msg { return actionMsg{verb: verb, server: server, err: eng.SetLogLevel(ctx, server, level)} }
}
