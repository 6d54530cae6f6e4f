// Package cache is what mcpdeck remembers about server definitions between
// runs, in the user cache directory, keyed by the definition's ConfigHash:
// the MCP protocol version each negotiated (offered first next time), the
// names of the tools, prompts and resources shell completion offers, and
// the last lists `mcpdeck serve` saw (lists.go), which answer an agent's
// first list before the server connects. Losing any of it costs a
// connection (or a wait), never a decision.
package cache
