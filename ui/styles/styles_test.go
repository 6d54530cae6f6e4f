package styles

import (
	"strings"
	"testing"

	"github.com/charmbracelet/lipgloss"
	"github.com/muesli/termenv"
)

func TestNoColorUsesNoColour(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	plain := New(DefaultPalette(), true)
	for name, st := range map[string]lipgloss.Style{"good": plain.Good, "bad": plain.Bad, "muted": plain.Muted, "warn": plain.Warn} {
		if got := st.Render("x"); got != "x" {
			t.Errorf("%s with NO_COLOR renders %q", name, got)
		}
	}
	if got := plain.Selected.Render("x"); !strings.Contains(got, "\x1b[7m") {
		t.Errorf("selection without colour is not reverse video: %q", got)
	}
	coloured := New(DefaultPalette(), false)
	if got := coloured.Good.Render("x"); !strings.Contains(got, "\x1b[") {
		t.Errorf("good renders without colour: %q", got)
	}
}

func TestDefaultRespectsNoColor(t *testing.T) {
	lipgloss.SetColorProfile(termenv.ANSI)
	t.Cleanup(func() { lipgloss.SetColorProfile(termenv.Ascii) })
	t.Setenv("NO_COLOR", "1")
	if got := Default().Bad.Render("x"); got != "x" {
		t.Fatalf("NO_COLOR set but got %q", got)
	}
}
