package form

import (
	"errors"
	"fmt"

	"github.com/charmbracelet/huh"

	"github.com/mcpdeck/mcpdeck/model/textsafe"
	"github.com/mcpdeck/mcpdeck/ui/tuikit"
)

// Fields returns the huh fields editing f's values, bound by pointer.
func (f *Schema) Fields() []huh.Field {
	out := make([]huh.Field, 0, len(f.fields))
	for _, ff := range f.fields {
		out = append(out, ff.huhField())
	}
	return out
}

// title is the field's label: its schema title and name, * when required.
func (ff *field) title() string {
	t := ff.name
	if ff.node.Title != "" && ff.node.Title != ff.name {
		t = ff.node.Title + " (" + ff.name + ")"
	}
	if ff.required {
		t += " *"
	}
	return textsafe.SanitizeLine(t)
}

func (ff *field) huhField() huh.Field {
	desc := textsafe.SanitizeLine(tuikit.FirstLine(ff.node.Description))
	switch ff.kind {
	case kindBool, kindEnum:
		opts := ff.options()
		return huh.NewSelect[int]().Key(ff.name).Title(ff.title()).Description(desc).Options(opts...).Value(&ff.choice).Inline(true).
			Validate(func(v int) error {
				if v < 0 && ff.required {
					return errors.New("choose a value")
				}
				return nil
			})
	case kindMulti:
		var opts []huh.Option[int]
		for i, o := range ff.opts {
			opts = append(opts, huh.NewOption(textsafe.SanitizeLine(o.label), i))
		}
		return huh.NewMultiSelect[int]().Key(ff.name).Title(ff.title()).Description(desc).Options(opts...).Value(&ff.multi).
			Validate(func(v []int) error {
				if len(v) == 0 && ff.required {
					return errors.New("choose at least one value")
				}
				return nil
			})
	case kindJSON:
		return huh.NewText().Key(ff.name).Title(ff.title() + " (JSON)").Description(desc).Lines(3).Value(&ff.str).
			Validate(ff.check)
	case kindString, kindNumber, kindInteger, kindList:
	}
	in := huh.NewInput().Key(ff.name).Title(ff.title()).Description(desc).Value(&ff.str).
		Validate(ff.check)
	if ff.node.Format == "password" {
		in = in.EchoMode(huh.EchoModePassword)
	}
	if ff.kind == kindList {
		in = in.Placeholder("comma-separated " + ff.node.Items.typ() + "s")
	}
	ff.input = in
	return in
}

// check is the per-field validator: an unset optional field is fine.
func (ff *field) check(string) error {
	if _, err := ff.value(); err != nil && !errors.Is(err, errUnset) {
		return fmt.Errorf("%s: %w", ff.name, err)
	}
	return nil
}

// options are the choices of a select by their labels (enumOptions: a
// titled enum shows its titles, not its values), or true/false, plus
// "(not set)" for an optional field.
func (ff *field) options() []huh.Option[int] {
	var opts []huh.Option[int]
	if !ff.required {
		opts = append(opts, huh.NewOption("(not set)", -1))
	}
	if ff.kind == kindBool {
		return append(opts, huh.NewOption("false", 0), huh.NewOption("true", 1))
	}
	for i, o := range ff.opts {
		opts = append(opts, huh.NewOption(textsafe.SanitizeLine(o.label), i))
	}
	return opts
}
