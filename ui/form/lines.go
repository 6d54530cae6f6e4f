package form

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Question is one field of a form asked on a terminal a line at a time
// (`mcpdeck call` answering a server's elicitation where no TUI runs): the
// same fields, defaults and checks as the TUI's form, typed as on the
// command line.
type Question struct {
	Name string
	// Prompt is the field's label ("Your name (name) *"), with its choices
	// and its default: "rating [great|fine|meh] (great)".
	Prompt string
	// Help is the first line of its description, "" for none.
	Help string
	// Secret is set for a password field: it is read without echo.
	Secret bool
}

// Names are the properties the schema declares, in its order.
func (f *Schema) Names() []string {
	out := make([]string, len(f.fields))
	for i, ff := range f.fields {
		out[i] = ff.name
	}
	return out
}

// Questions are the form's fields, in the schema's order.
func (f *Schema) Questions() []Question {
	out := make([]Question, 0, len(f.fields))
	for _, ff := range f.fields {
		p := ff.title()
		if c := ff.choices(); c != "" {
			p += " [" + c + "]"
		}
		if d := ff.defaultText(); d != "" && ff.node.Format != "password" {
			p += " (" + textsafe.SanitizeLine(d) + ")"
		}
		out = append(out, Question{
			Name: ff.name, Prompt: p, Secret: ff.node.Format == "password",
			Help: textsafe.SanitizeLine(tuikit.FirstLine(ff.node.Description)),
		})
	}
	return out
}

// choices lists what a choice field takes, as typed: its labels, or
// true|false.
func (ff *field) choices() string {
	switch ff.kind {
	case kindBool:
		return "true|false"
	case kindEnum, kindMulti:
		labels := make([]string, len(ff.opts))
		for i, o := range ff.opts {
			labels[i] = textsafe.SanitizeLine(o.label)
		}
		sep := "|"
		if ff.kind == kindMulti {
			sep = ","
		}
		return strings.Join(labels, sep)
	case kindString, kindNumber, kindInteger, kindList, kindJSON:
	}
	return ""
}

// defaultText is the field's current value as it would be typed: the
// schema's default until SetText changed it.
func (ff *field) defaultText() string {
	switch ff.kind {
	case kindBool:
		if ff.choice < 0 {
			return ""
		}
		return strconv.FormatBool(ff.choice == 1)
	case kindEnum:
		if ff.choice < 0 || ff.choice >= len(ff.opts) {
			return ""
		}
		return ff.opts[ff.choice].label
	case kindMulti:
		labels := make([]string, 0, len(ff.multi))
		for _, i := range ff.multi {
			labels = append(labels, ff.opts[i].label)
		}
		return strings.Join(labels, ",")
	case kindString, kindNumber, kindInteger, kindList, kindJSON:
	}
	return ff.str
}

// SetText sets field name from a line the person typed; "" keeps the
// default. It says what is wrong with text that does not read as the
// field's type or is not one of its choices; the form's whole schema is
// checked by Validate once every field is set.
func (f *Schema) SetText(name, text string) error {
	text = strings.TrimSpace(text)
	for _, ff := range f.fields {
		if ff.name != name {
			continue
		}
		if text == "" {
			if _, err := ff.value(); err != nil && !errors.Is(err, errUnset) {
				return fmt.Errorf("%s: %w", ff.name, err)
			}
			return nil
		}
		return ff.setText(text)
	}
	return fmt.Errorf("no field %q", name)
}

func (ff *field) setText(text string) error {
	switch ff.kind {
	case kindBool:
		b, err := strconv.ParseBool(text)
		if err != nil {
			return fmt.Errorf("%s: type true or false", ff.name)
		}
		ff.choice = map[bool]int{false: 0, true: 1}[b]
		return nil
	case kindEnum:
		i := ff.optionNamed(text)
		if i < 0 {
			return fmt.Errorf("%s: choose one of %s", ff.name, ff.choices())
		}
		ff.choice = i
		return nil
	case kindMulti:
		var picked []int
		for _, p := range strings.Split(text, ",") {
			i := ff.optionNamed(strings.TrimSpace(p))
			if i < 0 {
				return fmt.Errorf("%s: %q is not one of %s", ff.name, strings.TrimSpace(p), ff.choices())
			}
			picked = append(picked, i)
		}
		ff.multi = picked
		return nil
	case kindString, kindNumber, kindInteger, kindList, kindJSON:
	}
	ff.str = text
	return ff.check("")
}

// optionNamed is the choice text names, by label or by value; -1 for none.
func (ff *field) optionNamed(text string) int {
	for i, o := range ff.opts {
		if o.label == text || fmt.Sprint(o.value) == text {
			return i
		}
	}
	return -1
}
