package scan

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpdeck/mcpdeck/model/pins"
	"github.com/mcpdeck/mcpdeck/model/textsafe"
)

// Finding is one thing the scan found.
type Finding struct {
	Server string    `json:"server"`
	Kind   pins.Kind `json:"kind"`
	Item   string    `json:"item"`
	Field  string    `json:"field"`
	Rule   string    `json:"rule"`
	Level  Level     `json:"level"`
	// Message says what was found, in words; Excerpt is the text around
	// it, escaped (textsafe.Escape): hidden characters show as escapes.
	Message string `json:"message"`
	Excerpt string `json:"excerpt"`
}

// Context is what the scan of one server knows of the others.
type Context struct {
	// Tools names the servers that offer a tool called name (this one
	// among them); nil knows none.
	Tools func(name string) []string
}

func (c Context) offering(name string) []string {
	if c.Tools == nil {
		return nil
	}
	return c.Tools(name)
}

// excerptRunes is how much text on each side of a match an excerpt keeps.
const excerptRunes = 40

// maxPerRule bounds the findings of one rule in one field.
const maxPerRule = 3

// Server scans the items of one server.
func Server(server string, items []pins.Item, ctx Context) []Finding {
	var out []Finding
	own := map[string]bool{}
	for _, it := range items {
		if it.Kind == pins.KindTool {
			own[it.Name] = true
		}
	}
	for _, it := range items {
		s := itemScan{server: server, item: it, ctx: ctx, own: own}
		for _, f := range fields(it) {
			s.field(f.name, f.text)
		}
		if it.Cut || utf8.RuneCountInString(it.Description) > oversizeAt(it.Kind) {
			s.add(RuleOversized, "description", fmt.Sprintf("%s is longer than %d characters", what(it), oversizeAt(it.Kind)), "")
		}
		out = append(out, s.found...)
	}
	return out
}

func oversizeAt(k pins.Kind) int {
	if k == pins.KindInstructions {
		return 2 * OversizedText
	}
	return OversizedText
}

// HasWarning reports whether any finding is at warning level.
func HasWarning(fs []Finding) bool {
	for _, f := range fs {
		if f.Level == Warning {
			return true
		}
	}
	return false
}

type namedText struct{ name, text string }

func fields(it pins.Item) []namedText {
	return []namedText{
		{"name", it.Name},
		{"title", it.Title},
		{"description", it.Description},
		{"schema", it.Schema},
		{"outputSchema", it.Output},
		{"annotations", it.Annotations},
	}
}

// what names an item in a message.
func what(it pins.Item) string {
	if it.Kind == pins.KindInstructions {
		return "the instructions"
	}
	return fmt.Sprintf("%s %s", it.Kind, textsafe.Escape(it.Name))
}

type itemScan struct {
	server string
	item   pins.Item
	ctx    Context
	own    map[string]bool
	found  []Finding
}

func (s *itemScan) add(rule, field, msg, excerpt string) {
	r, _ := RuleByID(rule)
	s.found = append(s.found, Finding{
		Server: s.server, Kind: s.item.Kind, Item: s.item.Name, Field: field,
		Rule: rule, Level: r.Level, Message: msg, Excerpt: excerpt,
	})
}

func (s *itemScan) field(name, text string) {
	if text == "" {
		return
	}
	lower := strings.ToLower(text)
	for _, r := range Rules {
		if len(r.patterns) == 0 || !hinted(lower, r.hints) {
			continue
		}
		n := 0
		for _, p := range r.patterns {
			for _, m := range p.FindAllStringIndex(text, maxPerRule) {
				if n == maxPerRule {
					break
				}
				n++
				s.add(r.ID, name, fmt.Sprintf("%s: %s", r.Summary, textsafe.Escape(textsafe.Clip(text[m[0]:m[1]], 80))), excerpt(text, m[0], m[1]))
			}
		}
	}
	s.invisible(name, text)
	if hinted(lower, shadowHints) {
		s.shadowing(name, text)
	}
}

// invisible reports hidden characters (newline, tab and carriage return
// excepted), and spells out what tag characters hide: they mirror ASCII.
func (s *itemScan) invisible(field, text string) {
	first, count := -1, 0
	var tags strings.Builder
	for i, r := range text {
		if r == '\n' || r == '\t' || r == '\r' || !textsafe.HiddenRune(r) {
			continue
		}
		if first < 0 {
			first = i
		}
		count++
		if r >= 0xE0020 && r <= 0xE007E && tags.Len() < 200 {
			tags.WriteRune(r - 0xE0000)
		}
	}
	if count == 0 {
		return
	}
	msg := fmt.Sprintf("%d invisible character(s)", count)
	if tags.Len() > 0 {
		msg += fmt.Sprintf(", Unicode tag characters spelling %q", textsafe.Escape(tags.String()))
	}
	_, size := utf8.DecodeRuneInString(text[first:])
	s.add(RuleInvisible, field, msg, excerpt(text, first, first+size))
}

// shadowing reports a phrase that steers the use of a tool that is not
// this item: another server's tool, or one no server here offers.
func (s *itemScan) shadowing(field, text string) {
	n := 0
	for _, p := range shadowPatterns {
		sub := p.SubexpIndex("tool")
		for _, m := range p.FindAllStringSubmatchIndex(text, -1) {
			if n == maxPerRule {
				return
			}
			tool := strings.Trim(text[m[2*sub]:m[2*sub+1]], ".-")
			phrase := text[m[0]:m[1]]
			if tool == "" || (s.item.Kind == pins.KindTool && tool == s.item.Name) || s.own[tool] || !s.toolLike(tool, phrase) {
				continue
			}
			offering := s.ctx.offering(tool)
			if slices.Contains(offering, s.server) {
				continue
			}
			n++
			where := "a tool this server does not offer"
			if len(offering) > 0 {
				where = "the tool of " + textsafe.Escape(strings.Join(offering, ", "))
			}
			s.add(RuleShadowing, field, fmt.Sprintf("steers how %s is used: %s", textsafe.Escape(tool), where), excerpt(text, m[0], m[1]))
		}
	}
}

// toolLike tells a tool's name from the words the patterns also catch in
// plain prose ("when it is used", "before the call"): a name another
// server offers, one spelled like an identifier (send_email, sendEmail),
// or a word the phrase calls a tool.
func (s *itemScan) toolLike(w, phrase string) bool {
	switch strings.ToLower(w) {
	case "it", "this", "that", "tool", "tools", "one", "any", "each", "every", "same", "other", "user":
		return false
	}
	return len(s.ctx.offering(w)) > 0 || strings.ContainsAny(w, "_.-") || hasUpperInside(w) ||
		strings.Contains(strings.ToLower(phrase), " tool")
}

func hasUpperInside(w string) bool {
	for i, r := range w {
		if i > 0 && r >= 'A' && r <= 'Z' {
			return true
		}
	}
	return false
}

// excerpt is text[from:to] with excerptRunes of context on each side,
// escaped, "…" where it was cut.
func excerpt(text string, from, to int) string {
	start := from
	for n := 0; start > 0 && n < excerptRunes; n++ {
		_, size := utf8.DecodeLastRuneInString(text[:start])
		start -= size
	}
	end := to
	for n := 0; end < len(text) && n < excerptRunes; n++ {
		_, size := utf8.DecodeRuneInString(text[end:])
		end += size
	}
	if to-from > 4*excerptRunes {
		end = from + 4*excerptRunes
		for end > from && !utf8.RuneStart(text[end]) {
			end--
		}
	}
	out := textsafe.Escape(text[start:end])
	if start > 0 {
		out = "…" + out
	}
	if end < len(text) {
		out += "…"
	}
	return out
}
