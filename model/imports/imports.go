// Package imports reads the MCP server definitions of other clients (Claude
// Desktop, Claude Code, VS Code, Cursor) and converts them to mcpdeck's
// model.ServerConfig, saying for every server what could not be converted and
// why. It only reads files: writing the result is the caller's job (the CLI
// adds each converted server through the model, which checks for name clashes).
package imports

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/mcpdeck/mcpdeck/model"
)

// Client names another MCP client whose configuration can be imported.
type Client string

// The clients mcpdeck can import from; the strings are the --from values.
const (
	ClaudeDesktop Client = "claude-desktop"
	ClaudeCode    Client = "claude-code"
	VSCode        Client = "vscode"
	Cursor        Client = "cursor"
)

// Clients lists every supported client in the order shown in help text.
func Clients() []Client { return []Client{ClaudeDesktop, ClaudeCode, VSCode, Cursor} }

// ParseClient accepts the --from names.
func ParseClient(s string) (Client, bool) {
	for _, c := range Clients() {
		if string(c) == s {
			return c, true
		}
	}
	return "", false
}

// ErrUnknownClient is returned for a client name Clients does not list.
var ErrUnknownClient = errors.New("unknown client")

// Env says where the other clients keep their files. All three are absolute
// directories; tests point them at temporary ones.
type Env struct {
	Home      string // the user's home directory (~/.claude.json, ~/.cursor)
	ConfigDir string // os.UserConfigDir(): Claude/, Code/User/
	Cwd       string // the project directory (.mcp.json, .vscode/, .cursor/)
}

// Entry is one server found in another client's configuration.
type Entry struct {
	Name   string
	Source string             // the file it was read from
	Origin string             // where in the client: user, project, local (dir), workspace
	Config model.ServerConfig // meaningful only when Reason is empty
	// Reason says why the server could not be converted; empty when it was.
	Reason string
	// Notes list what was dropped without stopping the conversion.
	Notes []string
	// Shared reports that Source is a file inside a project (a repository's
	// .mcp.json, .vscode/ or .cursor/ file, or any file under Env.Cwd): whoever
	// can commit to the repository wrote it, so the server may only become a
	// project server that waits for the person's approval.
	Shared bool
}

// Result is everything read for one client. Entries are ordered from the most
// specific file (project, workspace) to the most general (user), so that when a
// name appears twice the first one is the one the client itself would use.
type Result struct {
	Client   Client
	Files    []string // every file looked at, existing or not
	Read     []string // the files that existed and were read
	Entries  []Entry
	Problems []error // files that exist but could not be read or parsed
}

// Read looks for the client's configuration in its usual places.
func Read(c Client, env Env) (Result, error) {
	res := Result{Client: c}
	for _, src := range locations(c, env) {
		if slices.Contains(res.Files, src.path) {
			continue // e.g. the project directory is the home directory
		}
		res.Files = append(res.Files, src.path)
		data, err := os.ReadFile(src.path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			res.Problems = append(res.Problems, readError(src.path, err))
			continue
		}
		res.Read = append(res.Read, src.path)
		entries, err := src.parse(data, src.path, env)
		if err != nil {
			res.Problems = append(res.Problems, err)
			continue
		}
		res.Entries = append(res.Entries, markShared(entries, src.path, env)...)
	}
	if len(res.Files) == 0 {
		return res, fmt.Errorf("%w %q", ErrUnknownClient, c)
	}
	sort.SliceStable(res.Entries, func(i, j int) bool {
		return originRank(res.Entries[i].Origin) < originRank(res.Entries[j].Origin)
	})
	return res, nil
}

// originRank orders entries the way the client itself would let one name
// override another: local (per-project private) first, then project or
// workspace files, then user-wide ones.
func originRank(origin string) int {
	switch {
	case strings.HasPrefix(origin, OriginLocal):
		return 0
	case origin == OriginProject, origin == OriginWorkspace:
		return 1
	}
	return 2
}

// ReadFile reads one file given by the person, in the client's format. For
// VS Code both mcp.json ("servers") and settings.json ("mcp": {"servers"})
// are recognised; for Claude Code both ~/.claude.json and .mcp.json.
func ReadFile(c Client, path string, env Env) (Result, error) {
	res := Result{Client: c, Files: []string{path}}
	parse := fileParser(c, path, env)
	if parse == nil {
		return res, fmt.Errorf("%w %q", ErrUnknownClient, c)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return res, readError(path, err)
	}
	res.Read = append(res.Read, path)
	entries, err := parse(data, path, env)
	if err != nil {
		return res, err
	}
	res.Entries = markShared(entries, path, env)
	return res, nil
}

// source is one place a client keeps servers, with the parser for its format.
// user marks the client's user-level files, which only the person writes.
type source struct {
	path  string
	parse func(data []byte, path string, env Env) ([]Entry, error)
	user  bool
}

func locations(c Client, env Env) []source {
	switch c {
	case ClaudeDesktop:
		return []source{{filepath.Join(env.ConfigDir, "Claude", "claude_desktop_config.json"), parseClaudeDesktop, true}}
	case ClaudeCode:
		return []source{
			{filepath.Join(env.Home, ".claude.json"), parseClaudeCodeUser, true},
			{filepath.Join(env.Cwd, ".mcp.json"), parseClaudeCodeProject, false},
		}
	case VSCode:
		return []source{
			{filepath.Join(env.Cwd, ".vscode", "mcp.json"), workspaceVSCode(env.Cwd), false},
			{filepath.Join(env.Cwd, ".vscode", "settings.json"), workspaceVSCode(env.Cwd), false},
			{filepath.Join(env.ConfigDir, "Code", "User", "mcp.json"), parseVSCode, true},
			{filepath.Join(env.ConfigDir, "Code", "User", "settings.json"), parseVSCode, true},
		}
	case Cursor:
		return []source{
			{filepath.Join(env.Cwd, ".cursor", "mcp.json"), workspaceCursor(env.Cwd), false},
			{filepath.Join(env.Home, ".cursor", "mcp.json"), parseCursor, true},
		}
	}
	return nil
}

// fileParser picks the parser for a file the person named with --file.
func fileParser(c Client, path string, env Env) func([]byte, string, Env) ([]Entry, error) {
	switch c {
	case ClaudeDesktop:
		return parseClaudeDesktop
	case ClaudeCode:
		return parseClaudeCodeUser // also reads a plain .mcp.json (top-level mcpServers)
	case VSCode:
		return workspaceVSCode(workspaceOf(path, ".vscode", env.Cwd))
	case Cursor:
		return workspaceCursor(workspaceOf(path, ".cursor", env.Cwd))
	}
	return nil
}

// workspaceOf returns the folder holding dotDir when path is inside one
// (/proj/.vscode/mcp.json → /proj), else fallback.
func workspaceOf(path, dotDir, fallback string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return fallback
	}
	dir := filepath.Dir(abs)
	if filepath.Base(dir) == dotDir {
		return filepath.Dir(dir)
	}
	return fallback
}

// readError says a file could not be read without naming it twice (an
// *fs.PathError repeats the path: "cannot read f: open f: ...").
func readError(path string, err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		err = pe.Err
	}
	return fmt.Errorf("cannot read %s: %w", path, err)
}
