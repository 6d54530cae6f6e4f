package form

import (
	"regexp"
	"strings"

	"github.com/yosida95/uritemplate/v3"
)

// queryExpr matches the RFC 6570 expressions whose variables may be left
// out ({?q,lang}, {&page}): an empty value there just drops the parameter.
var queryExpr = regexp.MustCompile(`\{[?&]([^}]*)\}`)

// Template is the form for a resource template: one field per variable
// of the URI template, so the person types "welcome", not
// "notes://{title}" edited by hand. It returns nil when the template cannot
// be parsed or has no variables (then the URI is edited whole).
func Template(raw string) (*uritemplate.Template, *Schema) {
	tpl, err := uritemplate.New(raw)
	if err != nil || len(tpl.Varnames()) == 0 {
		return nil, nil
	}
	optional := map[string]bool{}
	for _, m := range queryExpr.FindAllStringSubmatch(raw, -1) {
		for _, v := range strings.Split(m[1], ",") {
			optional[strings.TrimRight(strings.SplitN(v, ":", 2)[0], "*")] = true
		}
	}
	names := tpl.Varnames()
	props := make(map[string]any, len(names))
	var req []string
	for _, name := range names {
		props[name] = map[string]any{"type": "string"}
		if !optional[name] {
			req = append(req, name)
		}
	}
	sf, err := Parse(ObjectSchema(names, props, req))
	if err != nil {
		return nil, nil
	}
	return tpl, sf
}

// Expand fills tpl with the form's values (percent-encoded as the
// template's operators say).
func Expand(tpl *uritemplate.Template, args map[string]any) (string, error) {
	vals := uritemplate.Values{}
	for k, v := range args {
		if s, ok := v.(string); ok {
			vals.Set(k, uritemplate.String(s))
		}
	}
	return tpl.Expand(vals)
}
