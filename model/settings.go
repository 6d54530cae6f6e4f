package model

// ServersKey holds the servers of a configuration file, and of the local
// scope in the private state.
const ServersKey = "mcpServers"
