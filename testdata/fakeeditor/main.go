// Command fakeeditor stands in for an editor's IDE integration (VS Code's,
// coder/claudecode.nvim's) in mcpdeck's tests: it serves MCP on loopback,
// announces itself in a lock file the way those plugins do, checks the
// token header on every WebSocket handshake, and removes its lock file
// when it is told to stop (SIGINT or SIGTERM; a killed editor leaves a
// stale one behind, as real editors do).
//
//	-dir DIR        the Claude config dir: the lock file is DIR/ide/PORT.lock
//	-workspace P    a workspace folder (repeat for more)
//	-name NAME      ideName (default "Fake Editor")
//	-transport T    "ws" (token checked) or "sse" (no token)
//	-token TOKEN    the auth token (default 32 random hex digits)
//	-addr ADDR      where to listen (default 127.0.0.1:0)
//
// It prints "listening on PORT TOKEN LOCKPATH" to stderr once the lock file
// is written. Its tools answer honestly from the workspace on disk:
// getDiagnostics reports lines containing "ERROR:" as errors, openFile
// opens a file that exists and remembers the selection, getCurrentSelection
// returns it, openDiff rejects (no person is there to accept), executeCode
// runs only print("…") lines.
package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
)

type folders []string

func (f *folders) String() string     { return strings.Join(*f, ",") }
func (f *folders) Set(v string) error { *f = append(*f, v); return nil }

type config struct {
	dir, name, transport, token, addr string
	workspaces                        folders
}

func main() {
	var c config
	flag.StringVar(&c.dir, "dir", "", "Claude config dir (lock file goes to DIR/ide)")
	flag.Var(&c.workspaces, "workspace", "workspace folder (repeatable)")
	flag.StringVar(&c.name, "name", "Fake Editor", "ideName")
	flag.StringVar(&c.transport, "transport", "ws", `"ws" or "sse"`)
	flag.StringVar(&c.token, "token", "", "auth token (default random)")
	flag.StringVar(&c.addr, "addr", "127.0.0.1:0", "listen address")
	flag.Parse()
	if err := run(c); err != nil {
		fmt.Fprintln(os.Stderr, "fakeeditor:", err)
		os.Exit(1)
	}
}

func run(c config) error {
	if c.dir == "" {
		return errors.New("-dir is required")
	}
	if c.token == "" {
		b := make([]byte, 16)
		_, _ = rand.Read(b)
		c.token = hex.EncodeToString(b)
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	port := ln.Addr().(*net.TCPAddr).Port
	lockPath, err := writeLock(c, port)
	if err != nil {
		return err
	}
	defer os.Remove(lockPath)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ed := newEditor(c.workspaces)
	var h http.Handler
	switch c.transport {
	case "ws":
		h = wsHandler(c.token, ed)
	case "sse":
		h = sseHandler(ed, "http://"+ln.Addr().String())
	default:
		return fmt.Errorf("unknown -transport %q", c.transport)
	}
	srv := &http.Server{Handler: h} //nolint:gosec // test server on loopback
	go func() { <-ctx.Done(); _ = srv.Close() }()
	fmt.Fprintf(os.Stderr, "listening on %d %s %s\n", port, c.token, lockPath)
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// writeLock writes DIR/ide/PORT.lock (0600, in a 0700 directory), as the
// editor plugins do: pid, workspaceFolders, ideName, transport, authToken.
func writeLock(c config, port int) (string, error) {
	dir := filepath.Join(c.dir, "ide")
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return "", err
	}
	doc := map[string]any{
		"pid": os.Getpid(), "workspaceFolders": []string(c.workspaces), "ideName": c.name,
		"transport": c.transport, "authToken": c.token,
	}
	if c.workspaces == nil {
		doc["workspaceFolders"] = []string{}
	}
	b, err := json.Marshal(doc)
	if err != nil {
		return "", err
	}
	path := filepath.Join(dir, strconv.Itoa(port)+".lock")
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, b, 0o600); err != nil {
		return "", err
	}
	return path, os.Rename(tmp, path)
}
