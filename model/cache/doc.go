// Package cache is what mcpdeck remembers about server definitions between
// runs, in the user cache directory, keyed by the definition's ConfigHash:
// the MCP protocol version each negotiated (offered first next time), and
// the names of the tools, prompts and resources shell completion offers.
// Losing any of it costs a connection, never a decision.
package cache
