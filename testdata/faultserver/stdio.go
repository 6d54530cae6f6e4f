package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log"
	"os"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpdeck/mcpdeck/ui/serve/inorder"
)

// lockedWriter serializes whole-line writes to the client.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func serveStdio(ctx context.Context, c config) error {
	fmt.Fprintln(os.Stderr, "faultserver ready on stdio")
	out := &lockedWriter{w: os.Stdout}
	if c.malformedFirst {
		_, _ = out.Write([]byte("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{oops\n"))
	}
	h := hooks{
		drop:     func() { _ = os.Stdout.Close() },
		writeRaw: func(s string) { _, _ = out.Write([]byte(s + "\n")) },
	}
	h.flood = newFlood(c, h.writeRaw)
	srv := server.NewStdioServer(newServer(c, h))
	srv.SetErrorLogger(log.New(os.Stderr, "", 0))
	in, pw := io.Pipe()
	go func() {
		err := filterInput(os.Stdin, pw, c, h.flood)
		_ = pw.CloseWithError(err)
	}()
	// The progress tool's notifications go before its result.
	lines := inorder.NewLines(out)
	defer lines.Close()
	return srv.Listen(lines.With(ctx), in, lines)
}

// filterInput copies client messages line by line, applying -delay,
// -hang-init, -old-protocol and what the server does with a method it does
// not know (unknown.go), and keeping back the answers to the flood
// (-elicit-flood, -sample-flood), which the initialized notification starts.
func filterInput(r io.Reader, w io.Writer, c config, f *flood) error {
	br := bufio.NewReaderSize(r, 1<<20)
	for {
		line, err := br.ReadBytes('\n')
		if len(line) > 0 && !f.seen(line) {
			out, keep := filterMessage(line, c)
			if keep {
				if c.delay > 0 {
					time.Sleep(c.delay)
				}
				if _, werr := w.Write(out); werr != nil {
					return werr
				}
			}
		}
		if err != nil {
			if err == io.EOF {
				return nil
			}
			return err
		}
	}
}

// filterMessage decides what the server sees of one client message.
func filterMessage(line []byte, c config) ([]byte, bool) {
	if !c.hangInit && c.oldProtocol == "" && c.modern && c.unknown == "" && !c.dieOnUnknown && !c.closeOnUnknown {
		return line, true
	}
	var m map[string]any
	if json.Unmarshal(line, &m) != nil {
		return line, true
	}
	method, _ := m["method"].(string)
	_, isRequest := m["id"]
	switch {
	case method == "server/discover" && c.oldProtocol != "":
		return nil, false // some old servers ignore methods they do not know
	case isRequest && method != "" && !c.knows(method):
		return c.onUnknown(m)
	case method == "initialize" && c.hangInit:
		return nil, false
	case method == "initialize" && c.oldProtocol != "":
		if p, ok := m["params"].(map[string]any); ok {
			p["protocolVersion"] = c.oldProtocol
		}
		b, _ := json.Marshal(m)
		return append(b, '\n'), true
	}
	return line, true
}

// unknownMethod renames the method of a request the server does not know
// (server/discover for a 2025-11-25 server), so that mcp-go answers it:
// method not found.
func unknownMethod(m map[string]any) []byte {
	m["method"] = fmt.Sprint(m["method"], " (unknown to this server)")
	b, _ := json.Marshal(m)
	return append(b, '\n')
}
