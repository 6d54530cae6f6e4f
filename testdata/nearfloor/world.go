package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// world is a private machine for mcpdeck: its own HOME, config, cache,
// managed and temporary directories, a project directory to run in and
// the servers' definitions (--mcp-config).
type world struct {
	bin, root, home, proj, config string
}

func newWorld(bin string) (*world, error) {
	root, err := os.MkdirTemp("", "nearfloor-")
	if err != nil {
		return nil, err
	}
	w := &world{bin: bin, root: root, home: filepath.Join(root, "home"), config: filepath.Join(root, "servers.json")}
	w.proj = filepath.Join(w.home, "proj")
	for _, d := range []string{w.proj, filepath.Join(w.home, ".config"), filepath.Join(root, "managed"), filepath.Join(root, "tmp")} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return nil, err
		}
	}
	return w, nil
}

func (w *world) remove() { _ = os.RemoveAll(w.root) }

func (w *world) env() []string {
	return []string{
		"HOME=" + w.home,
		"XDG_CONFIG_HOME=" + filepath.Join(w.home, ".config"),
		"XDG_CACHE_HOME=" + filepath.Join(w.home, ".cache"),
		"MCPDECK_MANAGED_DIR=" + filepath.Join(w.root, "managed"),
		"TMPDIR=" + filepath.Join(w.root, "tmp"),
		"PATH=" + os.Getenv("PATH"),
		"NO_COLOR=1",
		"TERM=xterm-256color",
	}
}

// writeServers writes ss as the --mcp-config file, named s000, s001, ….
func (w *world) writeServers(ss []server) error {
	m := map[string]any{}
	for i, s := range ss {
		m[fmt.Sprintf("s%03d", i)] = map[string]any{"command": s[0], "args": s[1:]}
	}
	b, err := json.Marshal(map[string]any{"mcpServers": m})
	if err != nil {
		return err
	}
	return os.WriteFile(w.config, b, 0o600)
}

// countConnected counts the lines of `mcp list` that say connected.
func countConnected(out []byte) int {
	n := 0
	for line := range bytes.Lines(out) {
		if bytes.Contains(line, []byte("— connected")) {
			n++
		}
	}
	return n
}
