package form

import "testing"

// FuzzTemplateForm feeds resource templates a server could list: building
// the form and expanding it must never panic, whatever the template.
func FuzzTemplateForm(f *testing.F) {
	for _, s := range []string{
		"notes://{title}", "https://x.example/{+path}/items{?q,page}", "file:///{a}/{b*}{#frag}",
		"x://{?a:3,b*}{&c}", "notes://{unclosed", "{}", "{{a}}", "x://{a,a}", "", "{;a}{.b}{/c}",
	} {
		f.Add(s, "v a/l%ue")
	}
	f.Fuzz(func(t *testing.T, tpl, value string) {
		parsed, sf := Template(tpl)
		if parsed == nil {
			return
		}
		args := map[string]any{}
		for _, ff := range sf.fields {
			args[ff.name] = value
		}
		_, _ = Expand(parsed, args)
	})
}
