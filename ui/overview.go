package ui

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/status"
	"github.com/mcpdeck/mcpdeck/ui/styles"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
	"github.com/mcpdeck/mcpdeck/ui/whypanel"
)

// overviewLines is the Overview tab: state, target, source, overrides,
// approval and policy, why it is not running, last error, config, history.
func overviewLines(st *styles.Styles, s *engine.ServerSnapshot, width int, context string) []string {
	var out []string
	// a value too long for one line (a path, a URL) continues under itself
	kv := func(k, v string) {
		if v == "" {
			return
		}
		vs := wrapLines(textsafe.SanitizeLine(v), width-11)
		out = append(out, st.Muted.Render(fmt.Sprintf("%-10s", k))+" "+vs[0])
		for _, l := range vs[1:] {
			out = append(out, "           "+l)
		}
	}
	kv("State", status.Word(s)+stateSince(s))
	kv("Target", s.Target)
	kv("Sign-in", authLine(s))
	kv("Source", s.Source+" ("+s.Scope.String()+")")
	for _, o := range s.Overrides {
		kv("Overrides", o.Scope.String()+": "+o.Source)
	}
	if s.ServerInfo.Name != "" {
		kv("Server", tuikit.JoinNonEmpty(" ", s.ServerInfo.Name, s.ServerInfo.Version)+tuikit.JoinNonEmpty("", " · protocol ", s.ProtocolVersion))
	} else {
		kv("Protocol", s.ProtocolVersion) // negotiated with a server that gave no name
	}
	if s.Approval.Status != model.ApprovalNotNeeded {
		kv("Approval", s.Approval.Status.String())
	}
	if len(s.ToolsDeniedBy) > 0 { // every tool is denied: the cause leads
		kv("Tools", status.ToolsDenied(s.ToolsDeniedBy))
	} else {
		kv("Context", context)
		kv("Tools", status.PinsLine(s))
	}
	kv("Sampling", samplingLine(s))
	if sb := s.Config.Sandbox; sb != nil {
		kv("Sandbox", sb.Summary())
		if r, ok := s.LastRefusal(); ok {
			kv("Blocked", r.Allow+" (H adds it to the sandbox's network list)")
		}
	}
	if s.Policy.Rule != "" {
		verdict := "allowed by"
		if !s.Policy.Allowed {
			verdict = "blocked by"
		}
		kv("Policy", verdict+" rule "+s.Policy.Rule)
	}
	// A server that is not running says its failure in the why panel; a
	// connected one may still have one (a list it could not fetch). Either
	// way in the row's words, once.
	if why := whypanel.Panel(st, s, width); len(why) > 0 {
		out = append(out, "")
		out = append(out, why...)
	} else if s.Error != "" {
		out = append(out, "", st.Heading.Render("Last error"), st.Bad.Render(textsafe.SanitizeLine(s.Error)))
	}
	out = append(out, "", st.Heading.Render("Config")+st.Muted.Render(" (secrets masked)"))
	if cfg, err := configJSON(s.Config); err == nil {
		out = append(out, strings.Split(cfg, "\n")...)
	}
	if len(s.History) > 0 {
		out = append(out, "", st.Heading.Render("History"))
		for i := len(s.History) - 1; i >= 0 && i >= len(s.History)-10; i-- {
			h := s.History[i]
			out = append(out, fmt.Sprintf("%s  %s → %s  %s", h.At.Format(time.TimeOnly), h.From, h.To, st.Muted.Render(textsafe.SanitizeLine(status.Move(h)))))
		}
	}
	if len(s.Sampling) > 0 {
		out = append(out, "", st.Heading.Render("Sampling requests"))
		for i := len(s.Sampling) - 1; i >= 0 && i >= len(s.Sampling)-10; i-- {
			r := s.Sampling[i]
			out = append(out, fmt.Sprintf("%s  %s  %s", r.At.Format(time.TimeOnly), textsafe.SanitizeLine(r.Outcome), st.Muted.Render(textsafe.SanitizeLine(r.Request))))
		}
	}
	// a long line (an error, a history reason) is wrapped, never cut at the
	// screen's edge: the last error is shown in full
	var wrapped []string
	for _, l := range out {
		wrapped = append(wrapped, wrapLines(l, width)...)
	}
	return wrapped
}

// configJSON is a definition as indented JSON for the screen: not
// HTML-escaped, so a URL's & and a shell line's > read as written, and
// then through textsafe.EscapeJSON, so \r, U+202E and every other hidden
// character is shown as its \u escape, not obeyed.
func configJSON(c model.ServerConfig) (string, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(c); err != nil {
		return "", fmt.Errorf("encoding the definition: %w", err)
	}
	return string(textsafe.EscapeJSON(bytes.TrimSuffix(b.Bytes(), []byte("\n")))), nil
}

// samplingLine words the person's standing answer to the server's sampling
// requests, "" when they are asked each time and none came yet.
func samplingLine(s *engine.ServerSnapshot) string {
	switch s.SamplingDecision {
	case model.SamplingAlways:
		return "always allowed (you chose this)"
	case model.SamplingNever:
		return "never (you chose this)"
	case model.SamplingAsk:
		if len(s.Sampling) > 0 {
			return "you are asked each time"
		}
	}
	return ""
}

func stateSince(s *engine.ServerSnapshot) string {
	if len(s.History) == 0 {
		return ""
	}
	return " since " + s.History[len(s.History)-1].At.Format(time.TimeOnly)
}

// wrapLines splits text into lines no wider than width (word wrap).
func wrapLines(text string, width int) []string {
	return strings.Split(tuikit.Wrap(text, max(width, 10)), "\n")
}
