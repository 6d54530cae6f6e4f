package model

import (
	"bytes"
	"encoding/json"
	"sort"
)

// UnmarshalJSON decodes one server definition strictly about the types of the
// fields we know (args must be an array of strings, ...) and leniently about
// fields we do not know: those are kept in Extra so a rewrite keeps them.
// Errors name the field; Load adds file, line and column.
func (c *ServerConfig) UnmarshalJSON(data []byte) error {
	n, err := parseTree(data)
	if err != nil {
		return err
	}
	cfg, ferr := DecodeServerConfig(decoder{data}, n, "")
	if ferr != nil {
		return ferr
	}
	*c = cfg
	return nil
}

// DecodeServerConfig decodes a server definition from its node in the
// document d, strictly about the types of the fields it knows and keeping
// the others in Extra; prefix is the field path of the node ("" for a
// definition on its own), so that errors name the whole path.
func DecodeServerConfig(d decoder, n *node, prefix string) (ServerConfig, *fieldError) {
	var c ServerConfig
	if n.kind != '{' {
		return c, want(n, prefix, "an object")
	}
	if len(n.dups) > 0 {
		return c, dupError(n, prefix)
	}
	for _, m := range n.members {
		f := joinField(prefix, m.key)
		var err *fieldError
		switch m.key {
		case "type":
			var s string
			s, err = d.str(m.val, f)
			c.Type = Transport(s)
		case "command":
			c.Command, err = d.str(m.val, f)
		case "args":
			c.Args, err = d.strs(m.val, f)
		case "env":
			c.Env, err = d.strMap(m.val, f)
		case "cwd":
			c.Cwd, err = d.str(m.val, f)
		case "url":
			c.URL, err = d.str(m.val, f)
		case "headers":
			c.Headers, err = d.strMap(m.val, f)
		case "headersHelper":
			c.HeadersHelper, err = d.str(m.val, f)
		case "oauth":
			c.OAuth, err = decodeOAuth(d, m.val, f)
		case "name":
			c.Name, err = d.str(m.val, f)
		case "protocolVersion":
			c.ProtocolVersion, err = d.str(m.val, f)
		default:
			if c.Extra == nil {
				c.Extra = map[string]json.RawMessage{}
			}
			c.Extra[m.key] = d.raw(m.val)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// decodeOAuth decodes an oauth section like DecodeServerConfig.
func decodeOAuth(d decoder, n *node, prefix string) (*OAuthConfig, *fieldError) {
	if n.kind == 'z' {
		return nil, nil
	}
	if n.kind != '{' {
		return nil, want(n, prefix, "an object")
	}
	if len(n.dups) > 0 {
		return nil, dupError(n, prefix)
	}
	o := &OAuthConfig{}
	for _, m := range n.members {
		f := joinField(prefix, m.key)
		var err *fieldError
		switch m.key {
		case "clientId":
			o.ClientID, err = d.str(m.val, f)
		case "callbackPort":
			o.CallbackPort, err = d.port(m.val, f)
		case "authServerMetadataUrl":
			o.AuthServerMetadataURL, err = d.str(m.val, f)
		case "scopes":
			o.Scopes, err = d.strs(m.val, f)
		case "clientMetadataUrl":
			o.ClientMetadataURL, err = d.str(m.val, f)
		case "grant":
			o.Grant, err = d.str(m.val, f)
		case "assertionFile":
			o.AssertionFile, err = d.str(m.val, f)
		case "assertionCommand":
			o.AssertionCommand, err = d.str(m.val, f)
		default:
			if o.Extra == nil {
				o.Extra = map[string]json.RawMessage{}
			}
			o.Extra[m.key] = d.raw(m.val)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

// UnmarshalJSON decodes an oauth section with the same rules as ServerConfig.
func (o *OAuthConfig) UnmarshalJSON(data []byte) error {
	n, err := parseTree(data)
	if err != nil {
		return err
	}
	v, ferr := decodeOAuth(decoder{data}, n, "")
	if ferr != nil {
		return ferr
	}
	if v == nil {
		v = &OAuthConfig{}
	}
	*o = *v
	return nil
}

// objWriter writes a JSON object member by member in a fixed order.
type objWriter struct {
	buf   bytes.Buffer
	first bool
}

func newObjWriter() *objWriter { w := &objWriter{first: true}; w.buf.WriteByte('{'); return w }

func (w *objWriter) add(key string, v any) error {
	b, err := marshalNoEscape(v)
	if err != nil {
		return err
	}
	if !w.first {
		w.buf.WriteByte(',')
	}
	w.first = false
	k, _ := marshalNoEscape(key)
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

// marshalNoEscape is json.Marshal without HTML escaping (URLs with & stay
// readable in the files people edit by hand).
func marshalNoEscape(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
