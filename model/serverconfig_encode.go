package model

import (
	"bytes"
	"encoding/json"
	"slices"
	"sort"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// objWriter writes a JSON object member by member in a fixed order.
type objWriter struct {
	buf   bytes.Buffer
	first bool
}

func newObjWriter() *objWriter { w := &objWriter{first: true}; w.buf.WriteByte('{'); return w }

func (w *objWriter) add(key string, v any) error {
	b, err := jsondoc.MarshalNoEscape(v)
	if err != nil {
		return err
	}
	if !w.first {
		w.buf.WriteByte(',')
	}
	w.first = false
	k, _ := jsondoc.MarshalNoEscape(key)
	w.buf.Write(k)
	w.buf.WriteByte(':')
	w.buf.Write(b)
	return nil
}

func (w *objWriter) extra(extra map[string]json.RawMessage, known func(string) bool) error {
	keys := make([]string, 0, len(extra))
	for k := range extra {
		if !known(k) {
			keys = append(keys, k)
		}
	}
	sort.Strings(keys)
	for _, k := range keys {
		if err := w.add(k, extra[k]); err != nil {
			return err
		}
	}
	return nil
}

func (w *objWriter) bytes() []byte { w.buf.WriteByte('}'); return w.buf.Bytes() }

// ServerKeys lists the fields ServerConfig decodes itself, in the
// documented order: the names an unknown field may be a typo of.
func ServerKeys() []string {
	return []string{"type", "command", "args", "env", "cwd", "url", "headers", "headersHelper", "oauth", "name", "protocolVersion", "sandbox"}
}

// OAuthKeys is ServerKeys for OAuthConfig.
func OAuthKeys() []string {
	return []string{"clientId", "callbackPort", "authServerMetadataUrl", "scopes", "clientMetadataUrl", "grant", "assertionFile", "assertionCommand"}
}

// isServerKey reports whether k is a field ServerConfig decodes itself (an
// Extra entry of that name must not be written or hashed twice).
func isServerKey(k string) bool { return slices.Contains(ServerKeys(), k) }

// isOAuthKey is isServerKey for OAuthConfig.
func isOAuthKey(k string) bool { return slices.Contains(OAuthKeys(), k) }

// MarshalJSON writes the known fields in the documented order, then the Extra
// fields sorted by key, so new entries look like README's example and the
// output is deterministic. Empty fields are omitted.
func (c ServerConfig) MarshalJSON() ([]byte, error) {
	w := newObjWriter()
	fields := []struct {
		key string
		v   any
		set bool
	}{
		{"type", string(c.Type), c.Type != ""},
		{"command", c.Command, c.Command != ""},
		{"args", c.Args, len(c.Args) > 0},
		{"env", c.Env, len(c.Env) > 0},
		{"cwd", c.Cwd, c.Cwd != ""},
		{"url", c.URL, c.URL != ""},
		{"headers", c.Headers, len(c.Headers) > 0},
		{"headersHelper", c.HeadersHelper, c.HeadersHelper != ""},
		{"oauth", c.OAuth, c.OAuth != nil},
		{"name", c.Name, c.Name != ""},
		{"protocolVersion", c.ProtocolVersion, c.ProtocolVersion != ""},
		{"sandbox", c.Sandbox, c.Sandbox != nil},
	}
	for _, f := range fields {
		if f.set {
			if err := w.add(f.key, f.v); err != nil {
				return nil, err
			}
		}
	}
	if err := w.extra(c.Extra, isServerKey); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

// MarshalJSON writes the oauth section like ServerConfig.MarshalJSON does.
func (o OAuthConfig) MarshalJSON() ([]byte, error) {
	w := newObjWriter()
	fields := []struct {
		key string
		v   any
		set bool
	}{
		{"clientId", o.ClientID, o.ClientID != ""},
		{"callbackPort", o.CallbackPort, o.CallbackPort != 0},
		{"authServerMetadataUrl", o.AuthServerMetadataURL, o.AuthServerMetadataURL != ""},
		{"scopes", o.Scopes, len(o.Scopes) > 0},
		{"clientMetadataUrl", o.ClientMetadataURL, o.ClientMetadataURL != ""},
		{"grant", o.Grant, o.Grant != ""},
		{"assertionFile", o.AssertionFile, o.AssertionFile != ""},
		{"assertionCommand", o.AssertionCommand, o.AssertionCommand != ""},
	}
	for _, f := range fields {
		if f.set {
			if err := w.add(f.key, f.v); err != nil {
				return nil, err
			}
		}
	}
	if err := w.extra(o.Extra, isOAuthKey); err != nil {
		return nil, err
	}
	return w.bytes(), nil
}

var (
	_ json.Marshaler   = ServerConfig{}
	_ json.Unmarshaler = (*ServerConfig)(nil)
)
