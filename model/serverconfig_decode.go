package model

import (
	"encoding/json"

	"github.com/mcpdeck/mcpdeck/model/internal/jsondoc"
)

// UnmarshalJSON decodes one server definition strictly about the types of the
// fields we know (args must be an array of strings, ...) and leniently about
// fields we do not know: those are kept in Extra so a rewrite keeps them.
// Errors name the field; Load adds file, line and column.
func (c *ServerConfig) UnmarshalJSON(data []byte) error {
	n, err := jsondoc.Parse(data)
	if err != nil {
		return err
	}
	cfg, ferr := DecodeServerConfig(jsondoc.Decoder{Doc: data}, n, "")
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
func DecodeServerConfig(d jsondoc.Decoder, n *jsondoc.Node, prefix string) (ServerConfig, *jsondoc.FieldError) {
	var c ServerConfig
	if n.Kind != '{' {
		return c, jsondoc.Want(n, prefix, "an object")
	}
	if len(n.Dups) > 0 {
		return c, jsondoc.DupError(n, prefix)
	}
	for _, m := range n.Members {
		f := jsondoc.JoinField(prefix, m.Key)
		var err *jsondoc.FieldError
		switch m.Key {
		case "type":
			var s string
			s, err = d.Str(m.Val, f)
			c.Type = Transport(s)
		case "command":
			c.Command, err = d.Str(m.Val, f)
		case "args":
			c.Args, err = d.Strs(m.Val, f)
		case "env":
			c.Env, err = d.StrMap(m.Val, f)
		case "cwd":
			c.Cwd, err = d.Str(m.Val, f)
		case "url":
			c.URL, err = d.Str(m.Val, f)
		case "headers":
			c.Headers, err = d.StrMap(m.Val, f)
		case "headersHelper":
			c.HeadersHelper, err = d.Str(m.Val, f)
		case "oauth":
			c.OAuth, err = decodeOAuth(d, m.Val, f)
		case "name":
			c.Name, err = d.Str(m.Val, f)
		case "protocolVersion":
			c.ProtocolVersion, err = d.Str(m.Val, f)
		case "sandbox":
			c.Sandbox, err = decodeSandbox(d, m.Val, f)
		default:
			if c.Extra == nil {
				c.Extra = map[string]json.RawMessage{}
			}
			c.Extra[m.Key] = d.Raw(m.Val)
		}
		if err != nil {
			return c, err
		}
	}
	return c, nil
}

// decodeOAuth decodes an oauth section like DecodeServerConfig.
func decodeOAuth(d jsondoc.Decoder, n *jsondoc.Node, prefix string) (*OAuthConfig, *jsondoc.FieldError) {
	if n.Kind == 'z' {
		return nil, nil
	}
	if n.Kind != '{' {
		return nil, jsondoc.Want(n, prefix, "an object")
	}
	if len(n.Dups) > 0 {
		return nil, jsondoc.DupError(n, prefix)
	}
	o := &OAuthConfig{}
	for _, m := range n.Members {
		f := jsondoc.JoinField(prefix, m.Key)
		var err *jsondoc.FieldError
		switch m.Key {
		case "clientId":
			o.ClientID, err = d.Str(m.Val, f)
		case "callbackPort":
			o.CallbackPort, err = d.Port(m.Val, f)
		case "authServerMetadataUrl":
			o.AuthServerMetadataURL, err = d.Str(m.Val, f)
		case "scopes":
			o.Scopes, err = d.Strs(m.Val, f)
		case "clientMetadataUrl":
			o.ClientMetadataURL, err = d.Str(m.Val, f)
		case "grant":
			o.Grant, err = d.Str(m.Val, f)
		case "assertionFile":
			o.AssertionFile, err = d.Str(m.Val, f)
		case "assertionCommand":
			o.AssertionCommand, err = d.Str(m.Val, f)
		default:
			if o.Extra == nil {
				o.Extra = map[string]json.RawMessage{}
			}
			o.Extra[m.Key] = d.Raw(m.Val)
		}
		if err != nil {
			return nil, err
		}
	}
	return o, nil
}

// UnmarshalJSON decodes an oauth section with the same rules as ServerConfig.
func (o *OAuthConfig) UnmarshalJSON(data []byte) error {
	n, err := jsondoc.Parse(data)
	if err != nil {
		return err
	}
	v, ferr := decodeOAuth(jsondoc.Decoder{Doc: data}, n, "")
	if ferr != nil {
		return ferr
	}
	if v == nil {
		v = &OAuthConfig{}
	}
	*o = *v
	return nil
}
