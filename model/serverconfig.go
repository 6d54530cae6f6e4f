package model

import (
	"encoding/json"
)

// ServerConfig is one entry of an "mcpServers" object, compatible with the
// .mcp.json convention. Type is optional for stdio. Unknown fields are kept in
// Extra so that a rewrite never loses them.
type ServerConfig struct {
	Type          Transport         `json:"type,omitempty"`
	Command       string            `json:"command,omitempty"`
	Args          []string          `json:"args,omitempty"`
	Env           map[string]string `json:"env,omitempty"`
	Cwd           string            `json:"cwd,omitempty"`
	URL           string            `json:"url,omitempty"`
	Headers       map[string]string `json:"headers,omitempty"`
	HeadersHelper string            `json:"headersHelper,omitempty"`
	OAuth         *OAuthConfig      `json:"oauth,omitempty"`
	// Name selects a built-in server for the sdk transport.
	Name string `json:"name,omitempty"`
	// ProtocolVersion overrides the pinned MCP protocol version for this server.
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// Sandbox asks for the server's process to run sandboxed (stdio
	// servers only); nil runs it as the person's account, unless managed
	// policy requires a sandbox.
	Sandbox *Sandbox `json:"sandbox,omitempty"`
	// Extra holds fields this version of mcpdeck does not know; kept on rewrite.
	Extra map[string]json.RawMessage `json:"-"`
}

// OAuthConfig is the per-server OAuth section. Secrets never live here: a client
// secret goes to the keychain.
type OAuthConfig struct {
	ClientID              string   `json:"clientId,omitempty"`
	CallbackPort          int      `json:"callbackPort,omitempty"`
	AuthServerMetadataURL string   `json:"authServerMetadataUrl,omitempty"`
	Scopes                []string `json:"scopes,omitempty"`
	// ClientMetadataURL is a Client ID Metadata Document URL used as client_id
	// when the authorization server supports it.
	ClientMetadataURL string `json:"clientMetadataUrl,omitempty"`
	// Grant selects a machine-to-machine flow: "" (authorization code),
	// "client_credentials", "enterprise_managed" (enterprise-managed
	// authorization, formerly cross-app access, also spelled "xaa") or "jwt_bearer"
	// (workload identity federation: a JWT from the platform).
	Grant string `json:"grant,omitempty"`
	// AssertionFile is the file holding the workload JWT of the jwt_bearer
	// grant, read afresh for every token request (platforms rotate it).
	AssertionFile string `json:"assertionFile,omitempty"`
	// AssertionCommand prints the workload JWT of the jwt_bearer grant.
	AssertionCommand string                     `json:"assertionCommand,omitempty"`
	Extra            map[string]json.RawMessage `json:"-"`
}

// EffectiveType returns Type, defaulting to stdio when a command is set.
func (c ServerConfig) EffectiveType() Transport {
	if c.Type != "" {
		return c.Type
	}
	return TransportStdio
}
