package serve

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/mcpdeck/mcpdeck/engine"
	"github.com/mcpdeck/mcpdeck/model"
)

// offer300 offers 300 tools (5 servers of 60), each with a 200-byte
// description and a two-property schema: the size the issue measured.
func offer300(g *Gateway) {
	schema := json.RawMessage(`{"type":"object","properties":{"query":{"type":"string","description":"what to look for"},"limit":{"type":"integer","minimum":1}},"required":["query"]}`)
	desc := strings.Repeat("Lists the records that match a query. ", 6)[:200]
	snap := engine.Snapshot{Seq: 1}
	for s := range 5 {
		srv := engine.ServerSnapshot{Name: fmt.Sprint("srv", s), State: model.StateConnected, Runnable: true}
		for i := range 60 {
			srv.Tools = append(srv.Tools, engine.Tool{Name: fmt.Sprintf("tool_%03d", i), Description: desc, InputSchema: schema})
		}
		snap.Servers = append(snap.Servers, srv)
	}
	g.syncer.apply(snap)
}

// BenchmarkToolsList is one tools/list of 300 tools through the gateway's
// transports, as an agent sends it (reply bytes read whole): over stdio
// (a pipe pair) and over streamable HTTP (a loopback listener, one
// session).
func BenchmarkToolsList(b *testing.B) {
	const list = `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{}}`
	b.Run("stdio", func(b *testing.B) {
		r := offline(b)
		offer300(r.gw)
		toGW, fromAgent := io.Pipe()
		toAgent, fromGW := io.Pipe()
		done := make(chan error, 1)
		go func() { done <- r.gw.ServeStdio(context.Background(), toGW, fromGW) }()
		defer func() { _ = fromAgent.Close(); <-done; _ = toAgent.Close() }()
		replies := bufio.NewReaderSize(toAgent, 1<<20)
		var n int
		for b.Loop() {
			if _, err := io.WriteString(fromAgent, list+"\n"); err != nil {
				b.Fatal(err)
			}
			line, err := replies.ReadSlice('\n')
			if err != nil || !bytes.Contains(line, []byte(`"srv4__tool_059"`)) {
				b.Fatalf("%v %.200s", err, line)
			}
			n = len(line)
		}
		b.ReportMetric(float64(n), "bytes/reply")
	})
	b.Run("http", func(b *testing.B) {
		r := offline(b)
		offer300(r.gw)
		url := r.serveHTTP(HTTPOptions{Token: testToken}) + "/mcp"
		resp, _ := post(b, url, testToken, "", "", initializeBody)
		session := resp.Header.Get("Mcp-Session-Id")
		var n int
		for b.Loop() {
			_, body := post(b, url, testToken, session, "2025-11-25", list)
			if !bytes.Contains(body, []byte(`"srv4__tool_059"`)) {
				b.Fatalf("%.200s", body)
			}
			n = len(body)
		}
		b.ReportMetric(float64(n), "bytes/reply")
	})
}
