package addserver

import (
	"encoding/json"
	"os"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/huh"

	"github.com/mcpdeck/mcpdeck/ui/form"
	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// installSchema is the form schema asking for a registry server's fields,
// in the plan's order: one string property per field, named by its label
// ("env GITHUB_TOKEN"), with its description, default and choices;
// secrets are typed hidden, required fields are required.
func installSchema(fields []registry.Field) json.RawMessage {
	props := map[string]any{}
	order := make([]string, 0, len(fields))
	required := []string{}
	for _, f := range fields {
		in := f.Input
		node := map[string]any{"type": "string", "description": in.Description}
		if in.IsSecret {
			node["format"] = "password"
			node["description"] = "(secret, kept in your keychain) " + in.Description
		}
		if in.Default != "" {
			node["default"] = in.Default
		}
		switch {
		case len(in.Choices) > 0:
			node["enum"] = in.Choices
		case in.Format == "boolean":
			node["enum"] = []string{"true", "false"}
		}
		if in.IsRequired {
			required = append(required, f.Label())
		}
		if _, dup := props[f.Label()]; !dup {
			order = append(order, f.Label())
		}
		props[f.Label()] = node // two fields of one label: one form field, where the first was, as the last says
	}
	return form.ObjectSchema(order, props, required)
}

// installValues turns the form's values (by label) into the plan's (by
// field ID).
func installValues(fields []registry.Field, byLabel map[string]string) map[string]string {
	out := map[string]string{}
	for _, f := range fields {
		if v, ok := byLabel[f.Label()]; ok {
			out[f.ID] = v
		}
	}
	return out
}

// InstallForm is the form the CLI shows at a terminal for the fields of a
// registry server that were not given on the command line (mcp add
// --registry). values returns what was entered, by field ID. With
// ACCESSIBLE set in the environment, huh asks one question per line.
func InstallForm(fields []registry.Field) (f *huh.Form, values func() (map[string]string, error), err error) {
	sf, err := form.Parse(installSchema(fields))
	if err != nil {
		return nil, nil, err
	}
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithKeys("ctrl+c", "esc"))
	f = huh.NewForm(huh.NewGroup(sf.Fields()...)).WithKeyMap(km).WithAccessible(os.Getenv("ACCESSIBLE") != "")
	return f, func() (map[string]string, error) {
		byLabel, err := sf.StringValues()
		if err != nil {
			return nil, err
		}
		return installValues(fields, byLabel), nil
	}, nil
}
