// Package policy holds the rules that decide what may run and what may be
// called, and how they judge: managed policy (managed-settings.json's
// allowedMcpServers and deniedMcpServers, read by ReadManaged into Rules),
// which judges each server by its name, its URL compared part by part, or
// the program it runs found by the one resolver (Decide), and every
// program mcpdeck starts for it (Judge, through model.Policy); and the
// permission rules of user and local settings, which allow or deny a tool
// call by its exposed name (Permissions.Check); and which hosts are this
// machine alone (IsLoopbackHost), the only ones plain http may reach; and
// the one rule that a WebSocket URL is the HTTP URL of its handshake
// (HTTPScheme, DefaultPort), for URL rules, OAuth origins and clocks alike.
// Whatever it cannot understand — a URL that does not parse, a program
// that cannot be found, a broken file — blocks rather than allows.
package policy
