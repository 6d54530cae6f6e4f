package imports

import (
	"encoding/json"
	"fmt"
	"sort"
	"strconv"

	"github.com/mcpdeck/mcpdeck/model"
)

// dialect is what differs between clients when reading one server entry.
type dialect struct {
	// vars rewrites the client's ${...} variables into mcpdeck's ${VAR} form;
	// an error says which variable cannot be converted.
	vars func(s string) (string, error)
	// cursorAuth accepts Cursor's "auth" object (client id and scopes).
	cursorAuth bool
}

// plainVars keeps strings as they are: Claude clients already use ${VAR}.
func plainVars(s string) (string, error) { return s, nil }

// convertServers converts every member of an mcpServers/servers object.
func convertServers(raw json.RawMessage, path, origin string, d dialect) ([]Entry, error) {
	members, err := orderedMembers(raw)
	if err != nil {
		return nil, fmt.Errorf("%s: the servers object is not a JSON object of servers", path)
	}
	out := make([]Entry, 0, len(members))
	for _, m := range members {
		e := convertServer(m.key, m.val, d)
		e.Source, e.Origin = path, origin
		out = append(out, e)
	}
	return out, nil
}

// convertServer turns one entry into a ServerConfig, or says why it cannot.
func convertServer(name string, raw json.RawMessage, d dialect) Entry {
	e := Entry{Name: name}
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		e.Reason = "its definition is not a JSON object"
		return e
	}
	var cfg model.ServerConfig
	var typ string
	keys := make([]string, 0, len(fields))
	for k := range fields {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v := fields[k]
		var err error
		switch k {
		case "type", "transport":
			err = json.Unmarshal(v, &typ)
		case "command":
			cfg.Command, err = str(v, d)
		case "args":
			cfg.Args, err = strList(v, d)
		case "env":
			cfg.Env, err = strMap(v, d, &e.Notes, "env")
		case "cwd":
			cfg.Cwd, err = str(v, d)
		case "url", "serverUrl":
			cfg.URL, err = str(v, d)
		case "headers":
			cfg.Headers, err = strMap(v, d, &e.Notes, "headers")
		case "headersHelper":
			cfg.HeadersHelper, err = str(v, d)
		case "oauth":
			cfg.OAuth, err = oauthOf(v)
		case "auth":
			if !d.cursorAuth {
				e.Notes = append(e.Notes, "field auth was not imported")
				continue
			}
			cfg.OAuth, err = cursorAuthOf(v, &e.Notes)
		case "envFile":
			e.Reason = "it reads variables from an envFile, which mcpdeck does not support; copy them into env and add it by hand"
			return e
		case "disabled":
			e.Notes = append(e.Notes, "field disabled was not imported; use mcpdeck mcp disable")
		default:
			e.Notes = append(e.Notes, "field "+k+" was not imported")
		}
		if err != nil {
			e.Reason = "field " + k + ": " + err.Error()
			return e
		}
	}
	t, reason := transportOf(typ, cfg)
	if reason != "" {
		e.Reason = reason
		return e
	}
	cfg.Type = t
	e.Config = cfg
	return e
}

// transportOf decides the transport from the type field (a name or alias
// of a transport a person adds), or from the fields present when the type
// is absent.
func transportOf(typ string, cfg model.ServerConfig) (model.Transport, string) {
	if typ == "" {
		switch {
		case cfg.Command != "":
			return model.TransportStdio, ""
		case cfg.URL != "":
			t, err := DetectTransport(cfg.URL)
			if err != nil {
				return "", "field url: " + err.Error()
			}
			return t, ""
		}
		return "", "it has neither a command nor a url"
	}
	t, ok := model.LookupTransport(typ)
	switch {
	case !ok || !t.Addable:
		addable := model.TransportNames(func(t model.TransportInfo) bool { return t.Addable }, "or")
		return "", fmt.Sprintf("its type %q is not a transport mcpdeck supports (%s)", typ, addable)
	case t.Program && cfg.Command == "":
		return "", "it is a " + string(t.Name) + " server without a command"
	case t.Remote && cfg.URL == "":
		return "", "it is a " + string(t.Name) + " server without a url"
	case t.Remote:
		if err := CheckURL(t.Name, cfg.URL); err != nil {
			return "", "field url: " + err.Error()
		}
	}
	return t.Name, ""
}

func str(v json.RawMessage, d dialect) (string, error) {
	var s string
	if err := json.Unmarshal(v, &s); err != nil {
		return "", fmt.Errorf("expected a string")
	}
	return d.vars(s)
}

func strList(v json.RawMessage, d dialect) ([]string, error) {
	var raw []json.RawMessage
	if err := json.Unmarshal(v, &raw); err != nil {
		return nil, fmt.Errorf("expected an array of strings")
	}
	out := make([]string, 0, len(raw))
	for i, r := range raw {
		s, err := scalar(r)
		if err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		if s, err = d.vars(s); err != nil {
			return nil, fmt.Errorf("item %d: %w", i, err)
		}
		out = append(out, s)
	}
	return out, nil
}

// strMap reads an object of strings; numbers and booleans are written as text
// (VS Code allows them in env), null values are dropped with a note.
func strMap(v json.RawMessage, d dialect, notes *[]string, field string) (map[string]string, error) {
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(v, &raw); err != nil {
		return nil, fmt.Errorf("expected an object of strings")
	}
	if len(raw) == 0 {
		return nil, nil
	}
	out := make(map[string]string, len(raw))
	for k, r := range raw {
		if string(r) == "null" {
			*notes = append(*notes, field+"."+k+" is null and was dropped")
			continue
		}
		s, err := scalar(r)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		if s, err = d.vars(s); err != nil {
			return nil, fmt.Errorf("%s: %w", k, err)
		}
		out[k] = s
	}
	return out, nil
}

// scalar reads a string, number or boolean as text.
func scalar(r json.RawMessage) (string, error) {
	var s string
	if err := json.Unmarshal(r, &s); err == nil {
		return s, nil
	}
	var n json.Number
	if err := json.Unmarshal(r, &n); err == nil {
		return n.String(), nil
	}
	var b bool
	if err := json.Unmarshal(r, &b); err == nil {
		return strconv.FormatBool(b), nil
	}
	return "", fmt.Errorf("expected a string")
}

func oauthOf(v json.RawMessage) (*model.OAuthConfig, error) {
	var o struct {
		ClientID              string   `json:"clientId"`
		CallbackPort          int      `json:"callbackPort"`
		AuthServerMetadataURL string   `json:"authServerMetadataUrl"`
		Scopes                []string `json:"scopes"`
	}
	if err := json.Unmarshal(v, &o); err != nil {
		return nil, fmt.Errorf("expected an object with clientId, callbackPort, authServerMetadataUrl")
	}
	return &model.OAuthConfig{
		ClientID: o.ClientID, CallbackPort: o.CallbackPort,
		AuthServerMetadataURL: o.AuthServerMetadataURL, Scopes: o.Scopes,
	}, nil
}

// cursorAuthOf reads Cursor's {"CLIENT_ID", "CLIENT_SECRET", "scopes"}. The
// secret is never written to config: it belongs in the keychain.
func cursorAuthOf(v json.RawMessage, notes *[]string) (*model.OAuthConfig, error) {
	var a struct {
		ClientID     string   `json:"CLIENT_ID"`
		ClientSecret string   `json:"CLIENT_SECRET"`
		Scopes       []string `json:"scopes"`
	}
	if err := json.Unmarshal(v, &a); err != nil {
		return nil, fmt.Errorf("expected an object with CLIENT_ID and scopes")
	}
	if a.ClientSecret != "" {
		*notes = append(*notes, "the OAuth client secret was not imported (secrets are kept in the keychain, not in config)")
	}
	if a.ClientID == "" && len(a.Scopes) == 0 {
		return nil, nil
	}
	return &model.OAuthConfig{ClientID: a.ClientID, Scopes: a.Scopes}, nil
}
