// Package config finds, reads, merges and edits mcpdeck's configuration:
// which MCP servers exist, where each was defined, where it runs and
// whether it may run (Load, Resolved). It does no network I/O and starts
// no goroutines, so the engine, the CLI and the TUI all see the same
// answer, and tests can build any situation from files. What a server is
// lives in model; managed policy and permission rules in model/policy; the
// person's decisions about one project in model/private, which config
// reads while loading and writes for SetEnabled, SetApproval and the
// others.
//
// # Files, lowest to highest priority
//
//	plugin      <ConfigDir>/plugins/<plugin>/.mcp.json   (plugins in name order)
//	user        <ConfigDir>/settings.json                 "mcpServers"
//	project     nearest .mcp.json walking up from Cwd, stopping at Home
//	local       <ConfigDir>/projects/<name>-<hash>.json      "mcpServers" (model/private)
//	dynamic     each --mcp-config value: inline JSON ({"mcpServers": ...}) or a file
//	enterprise  <ManagedDir>/managed-mcp.json — when present, the only source
//	policy      <ManagedDir>/managed-settings.json allowedMcpServers / deniedMcpServers
//
// ProjectRoot is the nearest directory (from Cwd up to Home) holding a
// .mcp.json, else Cwd. Only the nearest .mcp.json is read: a repository
// nested in another does not inherit the outer servers.
//
// # Where servers run
//
// A stdio server of the project (.mcp.json) or the local scope starts in
// ProjectRoot; every other one starts in Home unless its definition sets
// cwd, where ${PROJECT_DIR} names ProjectRoot (workdir.go). Config.Cwd is
// always absolute after Load.
//
// # Trust
//
// Files inside a working tree are only ever project scope: their servers
// need the person's approval, and nothing in them approves, enables or
// permits. Every decision lives in the person's private state of the
// project, in the config dir (model/private). A .mcpdeck/settings.local.json
// at the project root (where older versions kept that state) is never
// loaded; see MigrateLocal.
//
// # Merge
//
// A name defined in several scopes resolves to the highest; Server.Overrides
// lists the hidden definitions, highest first. Within one scope the last
// definition loaded wins (a later --mcp-config beats an earlier one), except
// plugins where the first wins. Before that, plugin servers whose signature
// (stdio command+args, remote URL, after ${VAR} expansion) equals a manual
// server's, or an earlier plugin's, are dropped and listed in
// Resolved.Suppressed.
//
// # Errors never hide other servers
//
// A file that cannot be read or parsed is a Resolved.Problems entry naming
// file:line:col; only its servers are missing. A bad entry (wrong type, unset
// ${VAR}, missing command) stays listed with Server.Problems and cannot run.
// Writes refuse to touch a file they cannot parse. What such a file decides
// fails closed: a broken managed-settings.json blocks every server, a broken
// settings file denies every tool (Permissions.Unreadable), a broken private
// state keeps the decisions read before it broke, or, on a first load,
// leaves project servers' approval unknown (they do not run).
//
// # Writes
//
// AddServer, RemoveServer, SetEnabled and SetApproval lock "<file>.lock"
// (flock), re-read the file, splice only the member they change (every other
// byte — unknown keys, order, layout, BOM — stays), and replace the file
// atomically (temp file, fsync, rename, fsync dir), keeping its mode.
package config
