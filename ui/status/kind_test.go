package status

import "testing"

// TestEveryKindHasALook: each kind has its whole entry in kinds (a missing
// one would compile as empty strings): a glyph no other kind has (the
// narrow header shows glyphs without words), a colour, a word and a header
// label.
func TestEveryKindHasALook(t *testing.T) {
	glyphs := map[string]Kind{}
	for k := range Kind(NumKinds) {
		l := k.look()
		if l.glyph == "" || l.word == "" || l.label == "" || l.tone == ToneText {
			t.Errorf("kind %d has no whole look: %+v", k, l)
		}
		if o, dup := glyphs[l.glyph]; dup {
			t.Errorf("kinds %d and %d share the glyph %q", o, k, l.glyph)
		}
		glyphs[l.glyph] = k
	}
}

// TestEveryOutcomeHasALook: each CLI outcome has a mark and its own word.
func TestEveryOutcomeHasALook(t *testing.T) {
	words := map[string]bool{}
	for o := range numOutcomes {
		if o.Glyph() == "" || o.Word() == "" || words[o.Word()] {
			t.Errorf("outcome %d: glyph %q, word %q (empty or said twice)", o, o.Glyph(), o.Word())
		}
		words[o.Word()] = true
	}
}
