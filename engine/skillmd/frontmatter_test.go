package skillmd

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestParseFrontmatter(t *testing.T) {
	doc := "\ufeff---\r\nname: pdf\r\ndescription: \"Quoted \\\"x\\\"\"\r\nlicense: 'it''s MIT' # c\r\nversion: 2 # comment\r\nmetadata:\r\n  owner: me\r\nlong: |\r\n  line one\r\n  line two\r\nfold: >-\r\n  a\r\n  b\r\n\r\n  c\r\nplain: first\r\n  second\r\n---\r\nbody"
	got, err := parseFrontmatter(doc)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]frontValue{
		"name":        {text: "pdf", plain: true},
		"description": {text: `Quoted "x"`},
		"license":     {text: "it's MIT"},
		"version":     {text: "2", plain: true},
		"metadata":    {complex: true},
		"long":        {text: "line one\nline two\n"},
		"fold":        {text: "a b\nc"},
		"plain":       {text: "first second", plain: true},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for k, w := range want {
		if got[k] != w {
			t.Errorf("%s: got %+v, want %+v", k, got[k], w)
		}
	}
	for _, bad := range []string{"name: x\n---\n", "---\nname: x\n", "---\nname: x\nname: y\n---\n", "---\n  name: x\n---\n", "---\nname: \"open\n---\n", "---\nno colon\n---\n"} {
		if _, err := parseFrontmatter(bad); err == nil {
			t.Errorf("accepted %q", bad)
		}
	}
}

func TestCompareFrontmatter(t *testing.T) {
	entry := map[string]json.RawMessage{"name": json.RawMessage(`"pdf"`), "description": json.RawMessage(`"Do it"`), "version": json.RawMessage(`2`), "metadata": json.RawMessage(`{"a":1}`)}
	ok := "---\nname: pdf\ndescription: Do it\nversion: 2\nmetadata:\n  a: 1\n---\n"
	if why := Compare(entry, ok); why != "" {
		t.Fatal(why)
	}
	for doc, field := range map[string]string{
		"---\nname: pdf\ndescription: Steal\nversion: 2\nmetadata:\n  a: 1\n---\n":           "description",
		"---\nname: pdf\ndescription: Do it\nmetadata:\n  a: 1\n---\n":                       "version",
		"---\nname: pdf\ndescription: Do it\nversion: 2\nmetadata:\n  a: 1\nextra: x\n---\n": "extra",
		"---\nname: pdf\ndescription: Do it\nversion: \"2\"\nmetadata:\n  a: 1\n---\n":       "version",
		"---\nname: pdf\ndescription: Do it\nversion: 2\nmetadata: flat\n---\n":              "metadata",
		"---\ndescription: Do it\nversion: 2\nmetadata:\n  a: 1\n---\n":                      "name",
		"no frontmatter": "cannot be read",
	} {
		why := Compare(entry, doc)
		if why == "" || !strings.Contains(why, field) {
			t.Errorf("%q: got %q, want it to name %s", doc, why, field)
		}
	}
}

// FuzzParseFrontmatter: any input is parsed or refused without panic, and a
// parsed name survives a round trip through the comparison.
func FuzzParseFrontmatter(f *testing.F) {
	f.Add("---\nname: a\ndescription: b\n---\nbody")
	f.Add("---\nd: |\n  x\n\n  y\n---\n")
	f.Add("---\nd: >+\n x\n---")
	f.Add("---\r\nk: 'q''q'\r\n---\r\n")
	f.Fuzz(func(t *testing.T, doc string) {
		if !utf8.ValidString(doc) {
			return // JSON cannot hold it: the entry would differ, which refuses
		}
		fm, err := parseFrontmatter(doc)
		if err != nil {
			return
		}
		entry := map[string]json.RawMessage{}
		for k, v := range fm {
			if v.complex {
				entry[k] = json.RawMessage(`{}`)
				continue
			}
			b, _ := json.Marshal(v.text)
			entry[k] = b
		}
		_, hasName := fm["name"]
		_, hasDesc := fm["description"]
		if why := Compare(entry, doc); hasName && hasDesc && why != "" {
			t.Fatalf("a document differs from its own fields: %s", why)
		}
	})
}
