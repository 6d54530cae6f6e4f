package imports

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"strings"
)

// Origins name where in a client an entry came from; shown in import reports.
const (
	OriginUser      = "user"
	OriginProject   = "project"
	OriginLocal     = "local"
	OriginWorkspace = "workspace"
)

// parseClaudeDesktop reads claude_desktop_config.json: {"mcpServers": {...}}.
func parseClaudeDesktop(data []byte, path string, _ Env) ([]Entry, error) {
	top, err := decodeFile(data, path)
	if err != nil {
		return nil, err
	}
	return serversAt(top, "mcpServers", path, OriginUser, dialect{vars: plainVars})
}

// parseClaudeCodeUser reads ~/.claude.json: the servers of the project at (or
// above) the working directory under projects[<dir>].mcpServers (Claude Code's
// "local" scope) first, then the top-level mcpServers ("user" scope). A plain
// .mcp.json has only the top-level key and reads the same way.
func parseClaudeCodeUser(data []byte, path string, env Env) ([]Entry, error) {
	top, err := decodeFile(data, path)
	if err != nil {
		return nil, err
	}
	d := dialect{vars: plainVars}
	var out []Entry
	if raw, ok := top["projects"]; ok {
		var projects map[string]struct {
			MCPServers json.RawMessage `json:"mcpServers"`
		}
		if err := json.Unmarshal(raw, &projects); err != nil {
			return nil, fmt.Errorf("%s: field projects is not an object of projects", path)
		}
		for dir := env.Cwd; dir != ""; dir = parentDir(dir) {
			p, ok := projects[dir]
			if !ok || len(p.MCPServers) == 0 || string(p.MCPServers) == "null" {
				continue
			}
			entries, err := convertServers(p.MCPServers, path, OriginLocal+" ("+dir+")", d)
			if err != nil {
				return nil, err
			}
			out = append(out, entries...)
			break
		}
	}
	user, err := serversAt(top, "mcpServers", path, OriginUser, d)
	if err != nil {
		return nil, err
	}
	return append(out, user...), nil
}

// parseClaudeCodeProject reads a project's .mcp.json.
func parseClaudeCodeProject(data []byte, path string, _ Env) ([]Entry, error) {
	top, err := decodeFile(data, path)
	if err != nil {
		return nil, err
	}
	return serversAt(top, "mcpServers", path, OriginProject, dialect{vars: plainVars})
}

// workspaceVSCode reads a workspace's .vscode/mcp.json or .vscode/settings.json,
// with ${workspaceFolder} meaning the given project directory.
func workspaceVSCode(workspace string) func([]byte, string, Env) ([]Entry, error) {
	return func(data []byte, path string, env Env) ([]Entry, error) {
		return readVSCode(data, path, workspace, OriginWorkspace, env)
	}
}

// parseVSCode reads the user's Code/User/mcp.json or settings.json.
func parseVSCode(data []byte, path string, env Env) ([]Entry, error) {
	return readVSCode(data, path, env.Cwd, OriginUser, env)
}

// readVSCode accepts mcp.json ({"servers", "inputs"}) and settings.json
// ({"mcp": {"servers"}} or the flat "mcp.servers" key).
func readVSCode(data []byte, path, workspace, origin string, env Env) ([]Entry, error) {
	top, err := decodeFile(data, path)
	if err != nil {
		return nil, err
	}
	d := dialect{vars: editorVars("VS Code", workspace, env.Home)}
	if raw, ok := top["mcp"]; ok {
		var inner map[string]json.RawMessage
		if err := json.Unmarshal(raw, &inner); err != nil {
			return nil, fmt.Errorf("%s: field mcp is not an object", path)
		}
		return serversAt(inner, "servers", path, origin, d)
	}
	if _, ok := top["mcp.servers"]; ok {
		return serversAt(top, "mcp.servers", path, origin, d)
	}
	if _, ok := top["servers"]; ok {
		return serversAt(top, "servers", path, origin, d)
	}
	return serversAt(top, "mcpServers", path, origin, d)
}

// workspaceCursor reads a project's .cursor/mcp.json.
func workspaceCursor(workspace string) func([]byte, string, Env) ([]Entry, error) {
	return func(data []byte, path string, env Env) ([]Entry, error) {
		return readCursor(data, path, workspace, OriginProject, env)
	}
}

// parseCursor reads ~/.cursor/mcp.json.
func parseCursor(data []byte, path string, env Env) ([]Entry, error) {
	return readCursor(data, path, env.Cwd, OriginUser, env)
}

func readCursor(data []byte, path, workspace, origin string, env Env) ([]Entry, error) {
	top, err := decodeFile(data, path)
	if err != nil {
		return nil, err
	}
	d := dialect{vars: editorVars("Cursor", workspace, env.Home), cursorAuth: true}
	return serversAt(top, "mcpServers", path, origin, d)
}

// serversAt converts the servers object under key; a missing key means none.
func serversAt(top map[string]json.RawMessage, key, path, origin string, d dialect) ([]Entry, error) {
	raw, ok := top[key]
	if !ok || string(raw) == "null" {
		return nil, nil
	}
	return convertServers(raw, path, origin, d)
}

// parentDir returns the parent of dir, or "" at the root.
func parentDir(dir string) string {
	p := filepath.Dir(dir)
	if p == dir || strings.HasSuffix(p, string(filepath.Separator)+".") {
		return ""
	}
	return p
}
