package ui

import (
	"encoding/json"
	"os"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	"github.com/charmbracelet/huh"

	"github.com/mcpdeck/mcpdeck/ui/registry"
)

// installSchema is the form schema asking for a registry server's fields,
// in the plan's order: one string property per field, named by its label
// ("env GITHUB_TOKEN"), with its description, default and choices;
// secrets are typed hidden, required fields are required.
func installSchema(fields []registry.Field) json.RawMessage {
	var props strings.Builder
	required := []string{}
	props.WriteString("{")
	for i, f := range fields {
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
		name, _ := json.Marshal(f.Label())
		body, _ := json.Marshal(node)
		if i > 0 {
			props.WriteString(",")
		}
		props.Write(name)
		props.WriteString(":")
		props.Write(body)
	}
	props.WriteString("}")
	doc, _ := json.Marshal(map[string]any{"type": "object", "properties": json.RawMessage(props.String()), "required": required})
	return doc
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
func InstallForm(fields []registry.Field) (form *huh.Form, values func() (map[string]string, error), err error) {
	sf, err := newSchemaForm(installSchema(fields))
	if err != nil {
		return nil, nil, err
	}
	km := huh.NewDefaultKeyMap()
	km.Quit = key.NewBinding(key.WithKeys("ctrl+c", "esc"))
	form = huh.NewForm(huh.NewGroup(sf.Fields()...)).WithKeyMap(km).WithAccessible(os.Getenv("ACCESSIBLE") != "")
	return form, func() (map[string]string, error) {
		byLabel, err := sf.StringValues()
		if err != nil {
			return nil, err
		}
		return installValues(fields, byLabel), nil
	}, nil
}
