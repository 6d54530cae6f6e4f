package clinames

import "testing"

// TestSuggest: the closest name within two edits, ignoring case, or one
// the typed text begins; none for an exact name or nothing close.
func TestSuggest(t *testing.T) {
	t.Parallel()
	names := []string{"get", "list", "everything", "echo"}
	for _, tc := range []struct{ typed, want string }{
		{"lst", "list"}, // "get" is two edits away, "list" one
		{"everythin", "everything"},
		{"EVERYTHING", "everything"},
		{"every", "everything"}, // a prefix
		{"ecko", "echo"},
		{"echo", ""},
		{"zzzzzz", ""},
		{"", ""},
	} {
		got, ok := Suggest(tc.typed, names)
		if got != tc.want || ok != (tc.want != "") {
			t.Errorf("Suggest(%q) = %q, %v; want %q", tc.typed, got, ok, tc.want)
		}
	}
}
