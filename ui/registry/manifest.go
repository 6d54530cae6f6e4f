package registry

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
)

// The parts of an MCP bundle's manifest.json (the MCPB format) that say
// how to run its server and what it asks the person for. Everything here
// comes from the bundle, which comes from the network: bundleplan.go
// checks it before anything is built or shown.

// maxManifest bounds manifest.json: a manifest is a few KB.
const maxManifest = 1 << 20

// Manifest is a bundle's manifest.json.
type Manifest struct {
	ManifestVersion string                `json:"manifest_version"`
	DXTVersion      string                `json:"dxt_version"` // the older name of manifest_version
	Name            string                `json:"name"`
	DisplayName     string                `json:"display_name"`
	Version         string                `json:"version"`
	Description     string                `json:"description"`
	Author          struct{ Name string } `json:"author"`
	Server          ManifestServer        `json:"server"`
	Compatibility   struct {
		Platforms []string `json:"platforms"` // darwin, win32, linux; none = every one
	} `json:"compatibility"`
	// UserConfig is what the server asks the person for, in the
	// manifest's order (a JSON object, kept ordered for the form).
	UserConfig []UserOption `json:"-"`
}

// ManifestServer is how the bundle's server runs.
type ManifestServer struct {
	Type       string     `json:"type"` // node, python, binary, uv
	EntryPoint string     `json:"entry_point"`
	MCPConfig  *MCPConfig `json:"mcp_config"`
}

// MCPConfig is the command that runs the server, with ${__dirname},
// ${user_config.KEY} and a few directory variables to substitute.
type MCPConfig struct {
	Command           string                    `json:"command"`
	Args              []string                  `json:"args"`
	Env               map[string]string         `json:"env"`
	PlatformOverrides map[string]MCPConfigPatch `json:"platform_overrides"`
}

// MCPConfigPatch is one platform's changes to an MCPConfig: a command or
// arguments replace the base ones, env entries are added to them.
type MCPConfigPatch struct {
	Command string            `json:"command"`
	Args    []string          `json:"args"`
	Env     map[string]string `json:"env"`
}

// UserOption is one user_config entry: a value the person gives.
type UserOption struct {
	Key         string          `json:"-"`
	Type        string          `json:"type"` // string, number, boolean, directory, file
	Title       string          `json:"title"`
	Description string          `json:"description"`
	Required    bool            `json:"required"`
	Default     json.RawMessage `json:"default"` // string, number, boolean or list of strings
	Multiple    bool            `json:"multiple"`
	Sensitive   bool            `json:"sensitive"`
	Min         *float64        `json:"min"`
	Max         *float64        `json:"max"`
}

// parseManifest decodes manifest.json, keeping user_config's order.
func parseManifest(b []byte) (Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return m, fmt.Errorf("%w: its manifest.json is not the JSON of a manifest: %w", ErrUnusable, err)
	}
	var raw struct {
		UserConfig json.RawMessage `json:"user_config"`
	}
	_ = json.Unmarshal(b, &raw) // decoded once above: cannot fail now
	opts, err := orderedOptions(raw.UserConfig)
	if err != nil {
		return m, fmt.Errorf("%w: the user_config of its manifest.json: %w", ErrUnusable, err)
	}
	m.UserConfig = opts
	return m, nil
}

// orderedOptions decodes the user_config object in the order written.
func orderedOptions(raw json.RawMessage) ([]UserOption, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not an object")
	}
	var out []UserOption
	seen := map[string]bool{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		if seen[key] {
			return nil, fmt.Errorf("%q is declared twice", key)
		}
		seen[key] = true
		var o UserOption
		if err := dec.Decode(&o); err != nil {
			return nil, fmt.Errorf("%q: %w", key, err)
		}
		o.Key = key
		out = append(out, o)
	}
	return out, nil
}

// defaultText is an option's default as the text a field holds: a number
// in decimal, a boolean as true or false, a list joined by sep.
func (o UserOption) defaultText(sep string) (string, error) {
	d := bytes.TrimSpace(o.Default)
	if len(d) == 0 || string(d) == "null" {
		return "", nil
	}
	var s string
	if json.Unmarshal(d, &s) == nil {
		return s, nil
	}
	var b bool
	if json.Unmarshal(d, &b) == nil {
		return strconv.FormatBool(b), nil
	}
	var n float64
	if json.Unmarshal(d, &n) == nil {
		return strconv.FormatFloat(n, 'f', -1, 64), nil
	}
	var list []string
	if json.Unmarshal(d, &list) == nil {
		return strings.Join(list, sep), nil
	}
	return "", fmt.Errorf("the default of setting %s is neither text, a number, a boolean nor a list of texts", o.Key)
}
