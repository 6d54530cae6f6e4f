package jsondoc

import (
	"testing"
)

func TestLocate(t *testing.T) {
	doc := []byte(`{"env":{"A.B":"1","C":"2"},"args":["x","y"],"oauth":{"scopes":["s"]}}`)
	root, err := Parse(doc)
	if err != nil {
		t.Fatal(err)
	}
	for field, want := range map[string]string{
		"env.A.B":         `"1"`,
		"env.C":           `"2"`,
		"args[1]":         `"y"`,
		"oauth.scopes[0]": `"s"`,
		"args[9]":         `["x","y"]`,
		"command":         string(doc),
		"env.missing":     `{"A.B":"1","C":"2"}`,
		"":                string(doc),
	} {
		n := Locate(root, field)
		if got := string(doc[n.Start:n.End]); got != want {
			t.Errorf("locate(%q) = %s, want %s", field, got, want)
		}
	}
}
