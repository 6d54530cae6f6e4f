package form

import (
	"fmt"
	"strings"
	"testing"
)

func TestTemplateForm(t *testing.T) {
	tpl, sf := Template("https://x.example/{+path}/items{?q,page}")
	if tpl == nil {
		t.Fatal("no form for a valid template")
	}
	var names []string
	for _, f := range sf.fields {
		names = append(names, fmt.Sprintf("%s required=%v", f.name, f.required))
	}
	if got := strings.Join(names, ", "); got != "path required=true, q required=false, page required=false" {
		t.Fatalf("fields: %s", got)
	}
	uri, err := Expand(tpl, map[string]any{"path": "a/b", "q": "go lang"})
	if err != nil || uri != "https://x.example/a/b/items?q=go%20lang" {
		t.Fatalf("expand: %q, %v", uri, err)
	}
	if tpl, _ := Template("notes://all"); tpl != nil {
		t.Fatal("a URI without variables got a form")
	}
	if tpl, _ := Template("notes://{unclosed"); tpl != nil {
		t.Fatal("a broken template got a form")
	}
}
